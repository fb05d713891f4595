import Foundation

/// A failed system call's `errno`, turned into the ``StoreError`` a user should see.
///
/// ```swift
/// SystemError(code: EACCES).storeError(path: "App.sqlite", doing: "read it")   // .permissionDenied
/// ```
struct SystemError: Error {
    /// The `errno` value.
    var code: Int32

    /// The system's sentence for the code ("No such file or directory").
    var message: String { String(cString: strerror(code)) }

    /// The error of a store at `path`; `doing` says what failed ("read it"), for the
    /// causes that have no case of their own.
    func storeError(path: String, doing operation: String, forWriting: Bool = false) -> StoreError {
        switch code {
        case ENOENT: .fileNotFound(path: path)
        case EACCES, EPERM, EROFS: .permissionDenied(path: path, forWriting: forWriting || code == EROFS)
        case ENOSPC, EDQUOT: .diskFull(path: path, directory: (path as NSString).deletingLastPathComponent)
        default: .fileSystemError(path: path, operation: operation, reason: message)
        }
    }
}
