import Foundation

/// Keys of a program's own in the store's metadata (`Z_METADATA.Z_PLIST`), which Core Data
/// keeps as it finds them: where a seed installer records the seed version a store has.
extension PersistentStore {
    /// Sets (or, with nil, removes) one metadata value and writes the metadata row, in a
    /// transaction of its own or as part of the one already open. A value the store already
    /// has writes nothing: the file keeps its bytes.
    ///
    /// ```swift
    /// try store.setMetadataValue("3", forKey: "GraphStoreSeedVersion")
    /// store.metadata.properties["GraphStoreSeedVersion"]   // "3"
    /// ```
    public func setMetadataValue(_ value: String?, forKey key: String) throws(StoreError) {
        let current = metadata.properties[key]
        guard value.map({ (current as? String) != $0 }) ?? (current != nil) else { return }
        var changed = metadata
        changed.properties[key] = value
        let plist = try changed.encodedProperties()
        try translatingErrors {
            try transaction {
                try connection.prepare("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = (SELECT MIN(Z_VERSION) FROM Z_METADATA)")
                    .execute([.blob(plist)])
            }
        }
        metadata = changed
    }
}

