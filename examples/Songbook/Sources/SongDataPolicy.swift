import GraphStore

/// The policy the mapping model names for `SongToSongData`, as Xcode writes it with the
/// app's module (`SongbookSimple.SongDataPolicy`); it is found by its name with or without
/// the module. Core Data's default makes the `SongData` object and copies `filename` and
/// `lyrics` by name; this policy then tidies the file name and counts the words, which no
/// value expression of the mapping model can.
final class SongDataPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        for data in try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]) {
            let filename = try data.get("filename", as: String.self) ?? ""
            try data.set("filename", filename.lowercased().replacingOccurrences(of: " ", with: "-"))
            let lyrics = try data.get("lyrics", as: String.self) ?? ""
            try data.set("wordCount", Int32(lyrics.split(whereSeparator: { $0.isWhitespace }).count))
        }
    }
}
