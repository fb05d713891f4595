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
            if FileManager.default.fileExists(atPath: backup) { unlink(backup) }
            guard link(path, backup) == 0 else { throw failure(backup, "link", errno) }
            try keepSupportFolder(of: path, besideBackup: backup, leavingOut: newFiles)
            try sync(directory)
        }
        guard rename(replacement, path) == 0 else { throw failure(path, "rename", errno) }
        try sync(directory)
    }

    /// Writes a file's or directory's contents to disk.
    static func sync(_ path: String) throws(MigrationRunError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure(path, "open", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(path, "fsync", errno) }
    }

    /// Gives `folder` (a dry run's, in the temporary directory) a symbolic link to each of
    /// `store`'s external data files, so that the values a step reads are found there
    /// beside the ones it writes, and nothing is written beside the store.
    static func lendExternalDataFiles(of store: String, to folder: StoreSupportFolder) throws(MigrationRunError) {
        let original = StoreSupportFolder(storePath: store)
        do {
            try FileManager.default.createDirectory(atPath: folder.externalDataPath, withIntermediateDirectories: true)
            for name in try original.externalDataFileNames() {
                let target = URL(fileURLWithPath: original.externalDataFile(named: name)).standardizedFileURL.path
                try FileManager.default.createSymbolicLink(atPath: folder.externalDataFile(named: name), withDestinationPath: target)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder.path)
            throw .fileSystem(path: folder.path, operation: "link the store's external data files", reason: "\(error)")
        }
    }

    /// Gives the backup a copy of the store's external data files: the migrated store goes
    /// on with the folder as it is (its rows keep their references), and a later save of it
    /// may remove files the backup's rows still name. A folder left beside an older backup
    /// of the same name belongs to the file this backup replaces.
    /// A store file without an extension and its backup have one support folder between
    /// them (`App` and `App.backup` both have `.App_SUPPORT`): it is left as it is, theirs
    /// together.
    private static func keepSupportFolder(of path: String, besideBackup backup: String, leavingOut newFiles: Set<String>) throws(MigrationRunError) {
        guard !sharesSupportFolder(path, backup) else { return }
        let stale = StoreSupportFolder(storePath: backup)
        if FileManager.default.fileExists(atPath: stale.path) { try? FileManager.default.removeItem(atPath: stale.path) }
        do {
            try StoreSupportFolder(storePath: path).copy(besideStoreAt: backup, leavingOut: newFiles)
        } catch {
            throw .fileSystem(path: stale.path, operation: "copy the external data folder", reason: "\(error)")
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
