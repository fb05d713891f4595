import Foundation

/// A value kept outside the database: the file in the store's support folder that a row's
/// `0x02` reference names. Holding one reads nothing; the file is read when the value is
/// asked for (``ManagedObject/value(forKey:)``, ``StoredRow/attributeValue(at:)``).
///
/// Only a regular file inside the support folder is read: the folder, its
/// `_EXTERNAL_DATA` and the file are each opened without following a symbolic link, the
/// file without waiting (`O_NONBLOCK`: a FIFO cannot make the read hang), and what was
/// opened is checked (`fstat`) before a byte is read: a regular file of at most
/// ``PersistentStore/externalDataSizeLimit`` bytes. Anything else is an
/// ``ExternalDataProblem``.
///
/// ```swift
/// if let reference = try user.externalDataReference(forKey: "imageMediumData") {
///     print(reference.name, reference.exists)   // 30084A1C-76CF-4976-8312-8E8EFCF6F510 false
/// }
/// ```
public struct ExternalDataReference: Sendable, Hashable, CustomStringConvertible {
    /// The file's name as the row holds it: an upper-case UUID when Core Data or GraphStore
    /// wrote it.
    public let name: String
    /// The file's path, in the support folder's `_EXTERNAL_DATA`.
    public let path: String
    /// The support folder the file is looked for in, and the one lending its files when
    /// this one has no file of the name (a dry run's, see ``StoreSupportFolder``).
    private let folder: StoreSupportFolder

    init(name: String, folder: StoreSupportFolder) {
        self.name = name
        self.path = folder.externalDataFile(named: name)
        self.folder = folder
    }

    /// Whether the file is there (whatever it is).
    public var exists: Bool { problem() != .missing }

    public var description: String { name }

    /// Whether `name` can name a file of `_EXTERNAL_DATA` (not empty, no folder separator,
    /// not `.` or `..`): a reference that could reach outside the folder is not followed.
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.contains("\0")
    }

    /// Why the file cannot be read as the value, or nil when it can; reads no byte of it.
    public func problem() -> ExternalDataProblem? {
        switch open() {
        case .success(let file):
            close(file.descriptor)
            return nil
        case .failure(let problem):
            return problem
        }
    }

    /// The file's bytes, or why they are not read.
    func contents() -> Result<Data, ExternalDataProblem> {
        switch open() {
        case .success(let file):
            defer { close(file.descriptor) }
            return Self.read(file.descriptor, expected: file.size)
        case .failure(let problem):
            return .failure(problem)
        }
    }

    /// The open file, checked; from the lending folder when this one has no such file.
    private func open() -> Result<(descriptor: Int32, size: Int64), ExternalDataProblem> {
        let own = Self.open(name, in: folder)
        guard case .failure(.missing) = own, let lender = folder.lender else { return own }
        return Self.open(name, in: lender)
    }

    /// Opens `name` in `folder`'s `_EXTERNAL_DATA` without following a link at any of the
    /// three steps and without blocking, then checks what was opened.
    private static func open(_ name: String, in folder: StoreSupportFolder) -> Result<(descriptor: Int32, size: Int64), ExternalDataProblem> {
        let directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let support = Glibc.open(folder.path, directoryFlags)
        guard support >= 0 else { return .failure(folderProblem(errno, folder.path)) }
        defer { close(support) }
        let external = openat(support, StoreSupportFolder.externalDataFolder, directoryFlags)
        guard external >= 0 else { return .failure(folderProblem(errno, folder.externalDataPath)) }
        defer { close(external) }
        let descriptor = openat(external, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: return .failure(.missing)
            case ELOOP: return .failure(.symbolicLink)
            default: return .failure(.unreadable(reason: SystemError(code: code).message))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = SystemError(code: errno).message
            close(descriptor)
            return .failure(.unreadable(reason: reason))
        }
        if let kind = StoreFile.kind(of: status.st_mode) {
            close(descriptor)
            return .failure(.notARegularFile(kind: kind))
        }
        let limit = Int64(PersistentStore.externalDataSizeLimit)
        guard Int64(status.st_size) <= limit else {
            close(descriptor)
            return .failure(.tooLarge(size: Int64(status.st_size), limit: limit))
        }
        return .success((descriptor, Int64(status.st_size)))
    }

    /// A folder on the way that cannot be opened: missing (so is the file), a link or no
    /// folder, or refused.
    private static func folderProblem(_ code: Int32, _ path: String) -> ExternalDataProblem {
        switch code {
        case ENOENT: .missing
        case ELOOP, ENOTDIR: .folderNotAFolder(path: path)
        default: .unreadable(reason: "\(path): \(SystemError(code: code).message)")
        }
    }

    /// Reads the file to its end, never past the size limit (a file growing while it is
    /// read is refused as too large, not read without end).
    private static func read(_ descriptor: Int32, expected: Int64) -> Result<Data, ExternalDataProblem> {
        let limit = PersistentStore.externalDataSizeLimit
        var data = Data(count: Int(expected))
        var count = 0
        while true {
            if count == data.count {
                guard count <= limit else { return .failure(.tooLarge(size: Int64(count), limit: Int64(limit))) }
                data.count = Swift.min(limit + 1, count + 1 << 16)
            }
            let n = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(descriptor, base + count, buffer.count - count)
            }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return .failure(.unreadable(reason: SystemError(code: errno).message)) }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { return .failure(.tooLarge(size: Int64(count), limit: Int64(limit))) }
        data.count = count
        return .success(data)
    }
}
