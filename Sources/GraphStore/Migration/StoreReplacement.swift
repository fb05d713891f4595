import Foundation

/// Puts a migrated store in place of the old one so that, whenever the process stops, the
/// path holds either the old store or the new one, whole: the new file is synced to disk,
/// the old one is kept by a hard link (the backup), and one `rename` swaps them, after
/// which the directory is synced too.
enum StoreReplacement {
    /// Replaces the file at `path` with the file at `replacement` (beside it, on the same
    /// file system); the old file stays at `backup` when one is given, with a copy of the
    /// store's support folder less `newFiles` (external data files written for the
    /// replacement, which no row of the old file names).
    static func replace(_ path: String, with replacement: String, backup: String?, newFiles: Set<String> = []) throws(MigrationRunError) {
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        try sync(replacement)
        if let backup {
            // Never over an earlier backup (``MigrationManager`` refuses one before it
            // starts; `link` fails on one made since).
            guard link(path, backup) == 0 else { throw failure(backup, "link", errno) }
            try keepSupportFolder(of: path, besideBackup: backup, leavingOut: newFiles)
            try sync(directory)
        }
        guard rename(replacement, path) == 0 else { throw failure(path, "rename", errno) }
        try sync(directory)
    }

    /// Takes GraphStore's writer lock on the store at `path` exclusively, for a migration's
    /// whole run (``StoreWriterLock``), waiting up to `patience` for GraphStore writers to
    /// close it and for any other program's SQLite connection to it to go; refuses when one
    /// is still there (``MigrationRunError/storeInUse(path:holder:)``): the new file would
    /// take the store's name while that program went on writing the old one.
    static func lock(_ path: String, patience: Duration) throws(MigrationRunError) -> StoreWriterLock {
        let file: StoreFile.Opened
        do {
            file = try StoreFile.open(try StoreFile.resolve(path), path: path, forWriting: true)
        } catch {
            throw .store(error)
        }
        let lock: StoreWriterLock
        switch StoreWriterLock.take(.migration, on: file.resolvedPath, patience: patience) {
        case .success(let taken): lock = taken
        case .failure(.held(let holder)): throw .storeInUse(path: path, holder: holder)
        case .failure(.replaced): throw .store(.replaced(path: path))
        case .failure(.system(let error)): throw .store(error.storeError(path: path, doing: "lock it for the migration", forWriting: true))
        }
        if let holder = StoreLocks.connectionElsewhere(of: file, afterWaiting: patience) {
            throw .storeInUse(path: path, holder: holder > 0 ? holder : nil)
        }
        return lock
    }

    /// Refuses to keep a backup over an earlier one: the backup file, or its support folder
    /// (when it is not the store's own), already there.
    static func checkNoBackup(at backup: String, of path: String) throws(MigrationRunError) {
        removeBackupOfKilledSwap(at: backup, of: path)
        var status = stat()
        let folder = StoreSupportFolder(storePath: backup)
        let folderThere = !sharesSupportFolder(path, backup) && lstat(folder.path, &status) == 0
        guard lstat(backup, &status) != 0, !folderThere else {
            throw .backupExists(backup: backup, supportFolder: folderThere ? folder.path : nil)
        }
    }

    /// A migration killed between its `link` and its `rename` (``replace(_:with:backup:newFiles:)``)
    /// leaves the backup as a second name of the store file itself, with the copy of its
    /// support folder beside it: nothing of it is a backup of anything else, so both go, and
    /// the next migration starts again. A backup that is another file is left for the check.
    private static func removeBackupOfKilledSwap(at backup: String, of path: String) {
        var backupStatus = stat()
        var storeStatus = stat()
        guard lstat(backup, &backupStatus) == 0, stat(path, &storeStatus) == 0,
            backupStatus.st_dev == storeStatus.st_dev, backupStatus.st_ino == storeStatus.st_ino
        else { return }
        unlink(backup)
        if !sharesSupportFolder(path, backup) { try? FileManager.default.removeItem(atPath: StoreSupportFolder(storePath: backup).path) }
    }

    /// Writes a file's or directory's contents to disk.
    static func sync(_ path: String) throws(MigrationRunError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure(path, "open", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(path, "fsync", errno) }
    }

    /// Gives the backup a copy of the store's external data files: the migrated store goes
    /// on with the folder as it is (its rows keep their references), and a later save of it
    /// may remove files the backup's rows still name. A folder already there belongs to
    /// another store and is not replaced (the copy fails).
    /// A store file without an extension and its backup have one support folder between
    /// them (`App` and `App.backup` both have `.App_SUPPORT`): it is left as it is, theirs
    /// together.
    private static func keepSupportFolder(of path: String, besideBackup backup: String, leavingOut newFiles: Set<String>) throws(MigrationRunError) {
        guard !sharesSupportFolder(path, backup) else { return }
        do {
            try StoreSupportFolder(storePath: path).copy(besideStoreAt: backup, leavingOut: newFiles)
        } catch {
            throw .fileSystem(path: StoreSupportFolder(storePath: backup).path, operation: "copy the external data folder", reason: "\(error)")
        }
    }

    /// Whether the store files at `path` and `other` have the same support folder (its
    /// name leaves out the file's extension).
    static func sharesSupportFolder(_ path: String, _ other: String) -> Bool {
        StoreSupportFolder(storePath: path).path == StoreSupportFolder(storePath: other).path
    }

    /// Removes what a migration of the store at `path` that was killed left beside it: the
    /// copies of support folders it was making (the backup's, see
    /// ``StoreSupportFolder/removeAbandonedCopies()``). Its `.migrating` files go as each
    /// step begins.
    static func removeLeftovers(of path: String) {
        StoreSupportFolder(storePath: path).removeAbandonedCopies()
        StoreSupportFolder(storePath: MigrationManager.backupPath(for: path)).removeAbandonedCopies()
    }

    /// Removes a store file and whatever SQLite keeps beside it.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private static func failure(_ path: String, _ operation: String, _ code: Int32) -> MigrationRunError {
        .fileSystem(path: path, operation: operation, reason: String(cString: strerror(code)))
    }
}
