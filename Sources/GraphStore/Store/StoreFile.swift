import Foundation

/// Checks on a store file made before SQLite sees it, and how a store with a log is read
/// without touching the original files (see ``ReadOnlyAccess``).
///
/// Everything works on the file's real path: a store opened through a symbolic link has
/// its `-wal` and `-journal` beside the link's target, not beside the link.
enum StoreFile {
    /// The 16-byte header every SQLite 3 database starts with.
    static let header = Array("SQLite format 3\0".utf8)

    /// A store file that passed the checks, held open for GraphStore's own reads.
    struct Opened {
        /// The real path (symbolic links followed).
        let resolvedPath: String
        /// The main file.
        let main: StoreFileHandle
        /// The `-shm` of a WAL store, when there is one (SQLite's WAL locks live in it).
        let sharedMemory: StoreFileHandle?
        /// Whether a non-empty `-wal` or `-journal` sits beside the main file.
        let hasLog: Bool
        /// Whether a non-empty `-journal` (a rollback journal left by a write that did not
        /// finish) sits beside the main file.
        let hasJournal: Bool
    }

    /// The real path of `path`: every symbolic link followed (chains, relative links),
    /// `.` and `..` resolved.
    static func resolve(_ path: String) throws(StoreError) -> String {
        guard let real = realpath(path, nil) else {
            throw SystemError(code: errno).storeError(path: path, doing: "follow its symbolic links")
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// Opens the file at `resolved` (named `path` in messages) after checking that it is a
    /// regular file that looks like an SQLite database of plausible size, and, when
    /// `forWriting`, that it and its folder may be written.
    ///
    /// Plain `stat` and `pread`: this runs on every open, and `graphstore STORE .entities`
    /// should start as fast as `sqlite3` (FileManager's first use costs milliseconds).
    static func open(_ resolved: String, path: String, forWriting: Bool) throws(StoreError) -> Opened {
        var status = stat()
        guard stat(resolved, &status) == 0 else { throw SystemError(code: errno).storeError(path: path, doing: "read it") }
        // Before any open: opening a FIFO waits for a writer, a device may never end.
        if let kind = kind(of: status.st_mode) { throw .notARegularFile(path: path, kind: kind) }
        let main: StoreFileHandle
        switch StoreFileHandle.open(resolved) {
        case .success(let handle): main = handle
        case .failure(let error): throw error.storeError(path: path, doing: "open it")
        }
        let hasJournal = isNonEmpty(resolved + "-journal")
        let hasLog = hasJournal || isNonEmpty(resolved + "-wal")
        try checkHeader(of: main.descriptor, size: Int(status.st_size), hasLog: hasLog, path: path)
        if forWriting { try checkWritable(resolved, path: path) }
        let sharedMemory = try? StoreFileHandle.open(resolved + "-shm").get()
        return Opened(resolvedPath: resolved, main: main, sharedMemory: sharedMemory, hasLog: hasLog, hasJournal: hasJournal)
    }

    /// What a file that is not a regular file is, with its article; nil for a regular file.
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    private static func checkHeader(of descriptor: Int32, size: Int, hasLog: Bool, path: String) throws(StoreError) {
        var head = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < head.count {
            let n = head.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return pread(descriptor, base + count, 100 - count, off_t(count))
            }
            if n > 0 {
                count += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0 {
                throw SystemError(code: errno).storeError(path: path, doing: "read it")
            } else {
                break
            }
        }
        guard count > 0 else { throw .notADatabase(path: path, reason: "the file is empty") }
        guard count >= 100, head.prefix(16).elementsEqual(header) else {
            throw .notADatabase(path: path, reason: "no SQLite header")
        }
        let pageSize = Int(head[16]) << 8 | Int(head[17])
        let pages = Int(head[28]) << 24 | Int(head[29]) << 16 | Int(head[30]) << 8 | Int(head[31])
        let realPageSize = pageSize == 1 ? 65536 : pageSize
        if pages > 0, realPageSize > 0, size < pages * realPageSize, !hasLog {
            throw .truncated(path: path, expectedSize: pages * realPageSize, actualSize: size)
        }
    }

    /// A store opened for writing needs its file, and its folder (for the `-wal`, `-shm`
    /// or `-journal` SQLite makes there), to be writable; SQLite itself would open it
    /// read-only without a word and fail at the first save.
    private static func checkWritable(_ resolved: String, path: String) throws(StoreError) {
        for target in [resolved, (resolved as NSString).deletingLastPathComponent] where access(target, W_OK) != 0 {
            throw SystemError(code: errno).storeError(path: path, doing: "write it", forWriting: true)
        }
    }

    /// Whether a file exists at `path` and holds at least one byte.
    private static func isNonEmpty(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_size > 0
    }

    /// `file:` and the path percent-encoded, then `?` and the query.
    static func uri(_ path: String, query: String) -> String {
        // Percent-encoding by hand: URL path characters stay, `?`, `#` and `%` do not.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        var encoded = ""
        encoded.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "file:\(encoded)?\(query)"
    }

    /// A connection that reads the checked file `file` (named `path` in messages) without
    /// writing any byte of it, its `-wal` or its `-shm`, the way ``ReadOnlyAccess`` chooses;
    /// the private copy it reads, if any, is returned too, for the caller to remove.
    static func readOnlyConnection(to file: Opened, path: String) throws(StoreError) -> (connection: Connection, privateCopy: String?) {
        let access = ReadOnlyAccess(file)
        var copy: String?
        do {
            if access == .privateCopy {
                let made = try privateCopy(of: file, path: path)
                copy = made
                // Writable: SQLite replays the log, or rolls the journal back, in the copy.
                return (try Connection(path: made, mode: .readWrite), made)
            }
            let snapshot = access == .inPlace ? InPlaceSnapshot(resolvedPath: file.resolvedPath) : nil
            let connection = try Connection(path: access.uri(file.resolvedPath), mode: .readOnly)
            if let setup = access.setupSQL { try connection.execute(setup) }
            if let snapshot { connection.checkBeforeEachStatement { snapshot.changeError(path: path) } }
            return (connection, nil)
        } catch let error as SQLiteError {
            copy.map(removePrivateCopy)
            throw StoreError.opening(error, path: path, file: file, connection: nil, readOnly: true) ?? .notADatabase(path: path, reason: error.message)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .notADatabase(path: path, reason: "\(error)")
        }
    }

    /// Lets go of what ``readOnlyConnection(to:path:)`` gave, when its store goes or fails
    /// to open: the private copy is removed; a connection reading a log in place is kept
    /// open with the file (``StoreFileHandle/keepOpenWithFile(_:)``).
    static func release(readOnly connection: Connection, privateCopy: String?, file: Opened) {
        if let privateCopy {
            removePrivateCopy(privateCopy)
        } else if file.hasLog {
            file.main.keepOpenWithFile(connection)
        }
    }

    /// The URI by which `ATTACH` reads the checked file `file` (named `path` in messages)
    /// without writing any byte beside it, and the private copy made for it, if any, for the
    /// caller to remove. A file with a log is read from a copy: reading a log in place needs
    /// the attached schema's locking mode set before SQLite reads it, which `ATTACH` does at
    /// once.
    static func attachableURI(of file: Opened, path: String) throws(StoreError) -> (uri: String, privateCopy: String?) {
        guard file.hasLog else { return (ReadOnlyAccess.immutable.uri(file.resolvedPath), nil) }
        let copy = try privateCopy(of: file, path: path)
        return (ReadOnlyAccess.privateCopy.uri(copy), copy)
    }

    // MARK: - Private copies

    /// The folder private copies are made in: `TMPDIR`, else `/tmp`.
    static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        var directory = String(cString: value)
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return directory
    }

    /// Copies the store and its log into a fresh private folder (`graphstore-XXXXXX` in
    /// the temporary directory), so SQLite can replay (or roll back) the log there; returns the copy's
    /// path. The original files are only read. The folder is recorded in
    /// ``PrivateCopies`` before anything is copied into it, so that it is removed however
    /// the process ends.
    static func privateCopy(of file: Opened, path: String) throws(StoreError) -> String {
        let temporary = temporaryDirectory
        var template = Array((temporary + "/graphstore-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            let error = SystemError(code: errno)
            if error.code == ENOSPC || error.code == EDQUOT { throw .diskFull(path: path, directory: temporary) }
            throw .fileSystemError(path: path, operation: "make a private copy in \(temporary)", reason: error.message)
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let name = (file.resolvedPath as NSString).lastPathComponent
        let copy = directory + "/" + name
        PrivateCopies.inUse.add(directory: directory, file: name)
        do throws(StoreError) {
            try copyContents(of: file.main.descriptor, to: copy, path: path, temporary: temporary)
            for suffix in ["-wal", "-journal"] {
                let source = Glibc.open(file.resolvedPath + suffix, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
                guard source >= 0 else {
                    if errno == ENOENT { continue }
                    throw SystemError(code: errno).storeError(path: path + suffix, doing: "read it")
                }
                defer { close(source) }
                try copyContents(of: source, to: copy + suffix, path: path + suffix, temporary: temporary)
            }
        } catch {
            PrivateCopies.inUse.remove(directory)
            throw error
        }
        return copy
    }

    /// Removes a private copy and its folder.
    static func removePrivateCopy(_ copy: String) {
        PrivateCopies.inUse.remove((copy as NSString).deletingLastPathComponent)
    }

    /// Copies what `source` holds into a new file; `path` names the source in messages.
    private static func copyContents(of source: Int32, to destination: String, path: String, temporary: String) throws(StoreError) {
        func failure(_ code: Int32) -> StoreError {
            if code == ENOSPC || code == EDQUOT { return .diskFull(path: path, directory: temporary) }
            return .fileSystemError(path: path, operation: "copy it into \(temporary)", reason: SystemError(code: code).message)
        }
        let target = Glibc.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw failure(errno) }
        let size = 1 << 18
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let count = pread(source, buffer, size, offset)
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let error = SystemError(code: errno).storeError(path: path, doing: "read it")
                close(target)
                throw error
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let n = write(target, buffer + written, count - written)
                if n < 0, errno == EINTR { continue }
                if n < 0 {
                    let error = failure(errno)
                    close(target)
                    throw error
                }
                written += n
            }
            offset += off_t(count)
        }
        guard close(target) == 0 else { throw failure(errno) }
    }
}

extension String {
    /// The string with zeros in front, `width` characters in all.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
