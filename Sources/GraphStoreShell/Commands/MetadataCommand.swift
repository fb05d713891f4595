import Foundation
import GraphStore

/// `.metadata`: the store's metadata property list as a reader needs it, and its journal
/// mode and companion files.
enum MetadataCommand {
    /// The keys Core Data writes itself; any other key is an app's own.
    static let coreDataKeys: Set<String> = [
        "NSStoreType", "NSStoreUUID", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
        "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey", "_NSAutoVacuumLevel",
    ]

    static let command = ShellCommand(
        ".metadata", summary: "show the store's metadata (UUID, store type, framework version, version hashes in hex, identifiers, an app's own keys) and its journal mode and -wal, -shm, -journal files",
        example: ".metadata",
        details: """
            The metadata is the property list in Z_METADATA. The journal mode is read from the \
            file's header (bytes 18-19), and the -wal, -shm and -journal beside the store (beside \
            the real file when STORE is a symbolic link) are listed with their sizes: a store in \
            WAL mode whose -wal was not copied with it may be missing its latest changes.
            """
    ) { shell, _ in
        let store = try shell.requireStore()
        let metadata = store.metadata
        shell.emit(columns: ["item", "value"]) { sink in
            func row(_ item: String, _ value: String?) { sink.row([.text(item), value.map(Cell.text) ?? .null]) }
            row("store", store.resolvedPath)
            row("UUID", metadata.uuid)
            row("store type", metadata.storeType)
            row("framework version", metadata.frameworkVersion.map(String.init))
            row("version identifiers", metadata.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))
            row("version hashes version", metadata.properties["NSStoreModelVersionHashesVersion"].map(PropertyListText.of))
            row("version hashes digest", metadata.properties["NSStoreModelVersionHashesDigest"].map(PropertyListText.of))
            row("version checksum", metadata.properties["NSStoreModelVersionChecksumKey"].map(PropertyListText.of))
            for (entity, hash) in metadata.versionHashes.sorted(by: { $0.key < $1.key }) {
                row("version hash \(entity)", PropertyListText.hex(hash))
            }
            for key in metadata.keys where !coreDataKeys.contains(key) {
                row("app key \(key)", metadata.properties[key].map(PropertyListText.of))
            }
            files(store, row)
        }
    }

    /// The journal mode and the companion files, with a word where they disagree.
    private static func files(_ store: PersistentStore, _ row: (String, String?) -> Void) {
        let files = StoreFiles(storePath: store.resolvedPath)
        let mode = files.journalMode
        row("journal mode", mode?.description)
        for role in [StoreFiles.Role.writeAheadLog, .sharedMemory, .rollbackJournal] {
            let size = files.size(of: role)
            var text = size.map { "\($0) bytes" } ?? "none"
            switch (role, mode, size) {
            case (.writeAheadLog, .writeAheadLog?, nil):
                text += " (right for a store closed cleanly; a copy made while its app ran needs the -wal too)"
            case (.writeAheadLog, .rollback?, _?):
                text += " (the header says rollback journal: SQLite ignores this file)"
            case (.rollbackJournal, _, let bytes?) where bytes > 0:
                text += " (an interrupted write: rolled back when the store is next opened for writing)"
            default:
                break
            }
            row("file \(role.suffix)", text)
        }
    }
}
