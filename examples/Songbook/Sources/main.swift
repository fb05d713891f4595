// A song's file and lyrics move out into an object of their own: the entity split of a
// mapping model with two entity mappings from one source entity (SongToSong and
// SongToSongData), the second with a migration policy written in Swift. The mapping model
// (Mappings/Songbook1to2.xcmappingmodel) is found beside the model bundle, as Core Data
// finds it, and runs in Core Data's three stages; the relationship between the two halves
// is set in the second.
//
//     swift run songbook-example /tmp/Songbook.sqlite          # a copy of Songbook.sqlite, migrated
//     swift run songbook-example /tmp/Songbook.sqlite --seed   # a new store of version 1 only
//     graphstore --model examples/Songbook/Songbook.xcdatamodeld /tmp/Songbook.sqlite < examples/Songbook/songbook.graphstore
import Foundation
import GraphStore

let arguments = CommandLine.arguments.dropFirst()
let path = arguments.first ?? "Songbook.sqlite"
let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let bundle = folder.appendingPathComponent("Songbook.xcdatamodeld").path

/// A new store of version 1 with four songs, one without a file.
func seed(_ path: String) throws {
    let versions = try ModelVersions(path: bundle)
    guard let first = versions.version(named: "Songbook") else { return }
    let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: first.model))
    let songs: [(String, String?, String?, String?)] = [
        ("Blackbird", "The Beatles", "Blackbird Demo.m4a", "Blackbird singing in the dead of night"),
        ("Yesterday", "The Beatles", "Yesterday.m4a", "Yesterday all my troubles seemed so far away"),
        ("Hallelujah", "Leonard Cohen", "Hallelujah Live.m4a", nil),
        ("Untitled sketch", nil, nil, "la la la"),
    ]
    for (title, artist, filename, lyrics) in songs {
        let song = try context.insert("Song")
        try song.set("title", title)
        try song.set("artist", artist)
        try song.set("filename", filename)
        try song.set("lyrics", lyrics)
    }
    try context.save()
    print("made \(path): \(songs.count) songs of version \(first.name)")
}

do {
    if arguments.contains("--seed") {
        try seed(path)
        exit(0)
    }
    if !FileManager.default.fileExists(atPath: path) {
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent("Songbook.sqlite").path, toPath: path)
        print("copied examples/Songbook/Songbook.sqlite to \(path)")
    }
    var policies = MigrationPolicies()
    policies.register(SongDataPolicy.self)
    let manager = try MigrationManager(bundle: bundle, policies: policies)
    print(try manager.plan(forStoreAt: path).text)
    let outcome = try manager.migrate(storeAt: path, options: .init(keepsBackup: false))
    print("migrated: " + outcome.objectCounts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))

    let versions = try ModelVersions(path: bundle)
    guard let current = versions.currentVersion.flatMap(versions.version(named:)) else { exit(1) }
    let context = ManagedObjectContext(store: try PersistentStore(path: path, model: current.model))
    for song in try context.fetch(FetchRequest(entityName: "Song", sortKeys: [SortKey("title")])) {
        let title = try song.get("title", as: String.self) ?? ""
        guard let data = try song.object(forKey: "data") else {
            print("  \(title): no file")
            continue
        }
        let filename = try data.get("filename", as: String.self) ?? ""
        let words = try data.get("wordCount", as: Int32.self) ?? 0
        print("  \(title): \(filename), \(words) words")
    }
} catch {
    print("songbook-example: \(error)")
    exit(1)
}
