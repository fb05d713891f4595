import Foundation
import Testing
@testable import GraphStore

/// Inverses kept in step on every change (set, add, remove, replace, insert at index) for
/// each kind of relationship, and what the store holds after a save and a reopen.
@Suite struct InverseMaintenanceTests {
    typealias F = ValidationFixtures

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                RelationshipDescription("passport", to: "Passport", inverse: "owner")
            }
            EntityDescription("Passport") {
                AttributeDescription("number", .string)
                RelationshipDescription("owner", to: "Person", inverse: "passport")
            }
            EntityDescription("Library") {
                AttributeDescription("name", .string)
                RelationshipDescription("shelves", to: "Shelf", inverse: "library", toMany: true)
            }
            EntityDescription("Shelf") {
                AttributeDescription("name", .string)
                RelationshipDescription("library", to: "Library", inverse: "shelves")
            }
            EntityDescription("Volume") {
                AttributeDescription("title", .string)
                RelationshipDescription("pages", to: "Leaf", inverse: "volume", toMany: true, ordered: true)
            }
            EntityDescription("Leaf") {
                AttributeDescription("text", .string)
                RelationshipDescription("volume", to: "Volume", inverse: "pages")
            }
            EntityDescription("Student") {
                AttributeDescription("name", .string)
                RelationshipDescription("courses", to: "Course", inverse: "students", toMany: true)
            }
            EntityDescription("Course") {
                AttributeDescription("name", .string)
                RelationshipDescription("students", to: "Student", inverse: "courses", toMany: true)
            }
            EntityDescription("Playlist") {
                AttributeDescription("name", .string)
                RelationshipDescription("songs", to: "Song", inverse: "playlists", toMany: true, ordered: true)
            }
            EntityDescription("Song") {
                AttributeDescription("name", .string)
                RelationshipDescription("playlists", to: "Playlist", inverse: "songs", toMany: true)
            }
        }
    }

    private func named(_ context: ManagedObjectContext, _ entity: String, _ names: String...) throws -> [ManagedObject] {
        try names.map { name in
            let object = try context.insert(entity)
            try object.set(entity == "Passport" ? "number" : entity == "Leaf" ? "text" : entity == "Volume" ? "title" : "name", name)
            return object
        }
    }

    private func names(_ objects: [ManagedObject], key: String = "name") throws -> [String] {
        try objects.map { try $0.get(key, as: String.self) ?? "?" }
    }

    private func reopened(_ path: String) throws -> ManagedObjectContext { try F.reopen(path, Self.model()) }

    private func one(_ context: ManagedObjectContext, _ entity: String, _ key: String, _ value: String) throws -> ManagedObject {
        try #require(try context.fetch(entity).first { try $0.get(key, as: String.self) == value })
    }

    @Test func oneToOneSetMovesThePartnerAndStoresBothKeys() throws {
        let (context, path) = try F.newContext(try Self.model())
        let people = try named(context, "Person", "ann", "bob")
        let passports = try named(context, "Passport", "A1", "B2")
        try people[0].setObject(passports[0], forKey: "passport")
        #expect(try passports[0].object(forKey: "owner") === people[0])
        // bob takes A1: ann loses it, and B2 set from its own side takes bob from A1.
        try people[1].setObject(passports[0], forKey: "passport")
        #expect(try people[0].object(forKey: "passport") == nil)
        #expect(try passports[0].object(forKey: "owner") === people[1])
        try passports[1].setObject(people[1], forKey: "owner")
        #expect(try people[1].object(forKey: "passport") === passports[1])
        #expect(try passports[0].object(forKey: "owner") == nil)
        try context.save()
        #expect(try F.rows(path, "SELECT ZNAME, ZPASSPORT FROM ZPERSON ORDER BY Z_PK") == [["ann", "NULL"], ["bob", "2"]])
        #expect(try F.rows(path, "SELECT ZNUMBER, ZOWNER FROM ZPASSPORT ORDER BY Z_PK") == [["A1", "NULL"], ["B2", "2"]])
        let fresh = try reopened(path)
        let bob = try one(fresh, "Person", "name", "bob")
        let b2 = try #require(try bob.object(forKey: "passport"))
        #expect(try b2.object(forKey: "owner") === bob)
        // Clearing from either side clears both.
        try b2.setObject(nil, forKey: "owner")
        #expect(try bob.object(forKey: "passport") == nil)
        try fresh.save()
        #expect(try F.rows(path, "SELECT ZPASSPORT FROM ZPERSON WHERE ZNAME = 'bob'") == [["NULL"]])
        #expect(try F.rows(path, "SELECT ZOWNER FROM ZPASSPORT WHERE ZNUMBER = 'B2'") == [["NULL"]])
    }

    @Test func toManySetAddRemoveReplaceKeepsTheToOneSideAndItsColumn() throws {
        let (context, path) = try F.newContext(try Self.model())
        let libraries = try named(context, "Library", "north", "south")
        let shelves = try named(context, "Shelf", "a", "b", "c")
        try libraries[0].add(shelves[0], toKey: "shelves")
        try shelves[1].setObject(libraries[0], forKey: "library")
        #expect(try Set(names(libraries[0].objects(forKey: "shelves"))) == ["a", "b"])
        // Adding b to south moves it out of north.
        try libraries[1].add(shelves[1], toKey: "shelves")
        #expect(try names(libraries[0].objects(forKey: "shelves")) == ["a"])
        #expect(try shelves[1].object(forKey: "library") === libraries[1])
        try libraries[0].remove(shelves[0], fromKey: "shelves")
        #expect(try shelves[0].object(forKey: "library") == nil)
        // Replacing south's contents: b leaves, a and c join.
        try libraries[1].setObjects([shelves[0], shelves[2]], forKey: "shelves")
        #expect(try shelves[1].object(forKey: "library") == nil)
        #expect(try shelves[2].object(forKey: "library") === libraries[1])
        try context.save()
        #expect(try F.rows(path, "SELECT ZNAME, ZLIBRARY FROM ZSHELF ORDER BY Z_PK") == [["a", "2"], ["b", "NULL"], ["c", "2"]])
        let fresh = try reopened(path)
        let south = try one(fresh, "Library", "name", "south")
        #expect(try Set(names(south.objects(forKey: "shelves"))) == ["a", "c"])
        let b = try one(fresh, "Shelf", "name", "b")
        try b.setObject(south, forKey: "library")
        #expect(try Set(names(south.objects(forKey: "shelves"))) == ["a", "b", "c"])
        try fresh.save()
        #expect(try F.rows(path, "SELECT COUNT(*) FROM ZSHELF WHERE ZLIBRARY = 2") == [["3"]])
    }

    @Test func orderedToManyInsertsAtIndexAndWritesZFOK() throws {
        let (context, path) = try F.newContext(try Self.model())
        let volume = try named(context, "Volume", "v")[0]
        let other = try named(context, "Volume", "w")[0]
        let leaves = try named(context, "Leaf", "one", "two", "three", "four")
        for leaf in leaves.prefix(3) { try volume.add(leaf, toKey: "pages") }
        try volume.insert(leaves[3], at: 1, forKey: "pages")
        #expect(try leaves[3].object(forKey: "volume") === volume)
        #expect(try names(volume.objects(forKey: "pages"), key: "text") == ["one", "four", "two", "three"])
        try context.save()
        #expect(try F.rows(path, "SELECT ZTEXT, ZVOLUME, Z_FOK_VOLUME FROM ZLEAF ORDER BY Z_FOK_VOLUME") == [
            ["one", "1", "2048"], ["four", "1", "3072"], ["two", "1", "4096"], ["three", "1", "5120"],
        ])
        // Moving within, removing, and moving to another volume through the to-one side.
        try volume.insert(leaves[2], at: 0, forKey: "pages")
        try volume.remove(leaves[0], fromKey: "pages")
        try leaves[3].setObject(other, forKey: "volume")
        #expect(try names(volume.objects(forKey: "pages"), key: "text") == ["three", "two"])
        #expect(try names(other.objects(forKey: "pages"), key: "text") == ["four"])
        try context.save()
        let fresh = try reopened(path)
        let v = try one(fresh, "Volume", "title", "v")
        #expect(try names(v.objects(forKey: "pages"), key: "text") == ["three", "two"])
        #expect(try F.rows(path, "SELECT ZTEXT, ZVOLUME, Z_FOK_VOLUME FROM ZLEAF WHERE ZVOLUME IS NOT NULL ORDER BY ZVOLUME, Z_FOK_VOLUME") == [
            ["three", "1", "2048"], ["two", "1", "3072"], ["four", "2", "2048"],
        ])
        #expect(try F.rows(path, "SELECT ZVOLUME, Z_FOK_VOLUME FROM ZLEAF WHERE ZTEXT = 'one'") == [["NULL", "NULL"]])
        // Replacing the whole contents sets the order, takes the newcomer from its old
        // volume and leaves the one left out without a volume.
        let first = try one(fresh, "Leaf", "text", "one")
        let four = try one(fresh, "Leaf", "text", "four")
        let two = try one(fresh, "Leaf", "text", "two")
        try v.setObjects([four, first, two], forKey: "pages")
        #expect(try names(v.objects(forKey: "pages"), key: "text") == ["four", "one", "two"])
        #expect(try one(fresh, "Volume", "title", "w").objects(forKey: "pages").isEmpty)
        #expect(try one(fresh, "Leaf", "text", "three").object(forKey: "volume") == nil)
        try fresh.save()
        let replaced = try F.rows(path, "SELECT ZTEXT, ZVOLUME, Z_FOK_VOLUME FROM ZLEAF ORDER BY ZVOLUME, Z_FOK_VOLUME")
        #expect(replaced == [
            ["three", "NULL", "NULL"], ["four", "1", "2048"], ["one", "1", "3072"], ["two", "1", "4096"],
        ])
    }

    @Test func manyToManyMaintainsBothSetsThroughTheJoinTable() throws {
        let (context, path) = try F.newContext(try Self.model())
        let students = try named(context, "Student", "ann", "bob")
        let courses = try named(context, "Course", "math", "art", "latin")
        try students[0].add(courses[0], toKey: "courses")
        try students[0].add(courses[1], toKey: "courses")
        try courses[1].add(students[1], toKey: "students")
        #expect(try Set(names(courses[1].objects(forKey: "students"))) == ["ann", "bob"])
        #expect(try names(students[1].objects(forKey: "courses")) == ["art"])
        try students[0].remove(courses[0], fromKey: "courses")
        #expect(try courses[0].objects(forKey: "students").isEmpty)
        try students[1].setObjects([courses[0], courses[2]], forKey: "courses")
        #expect(try names(courses[1].objects(forKey: "students")) == ["ann"])
        #expect(try names(courses[2].objects(forKey: "students")) == ["bob"])
        try context.save()
        guard case .joinTable(let join) = try context.store.mapping(for: "Student").relationship(named: "courses")?.storage else {
            Issue.record("Student.courses should be stored in a join table")
            return
        }
        let pairs = try F.rows(path, "SELECT \(join.sourceColumn), \(join.destinationColumn) FROM \(join.table) ORDER BY 1, 2")
        #expect(pairs == [["1", "2"], ["2", "1"], ["2", "3"]])
        let fresh = try reopened(path)
        let math = try one(fresh, "Course", "name", "math")
        #expect(try names(math.objects(forKey: "students")) == ["bob"])
        let ann = try one(fresh, "Student", "name", "ann")
        try math.add(ann, toKey: "students")
        #expect(try Set(names(ann.objects(forKey: "courses"))) == ["art", "math"])
        try fresh.delete(try one(fresh, "Student", "name", "bob"))
        try fresh.save()
        #expect(try F.rows(path, "SELECT \(join.sourceColumn), \(join.destinationColumn) FROM \(join.table) ORDER BY 1, 2") == [["1", "1"], ["1", "2"]])
    }

    @Test func orderedManyToManyKeepsItsOrderInTheJoinTable() throws {
        let (context, path) = try F.newContext(try Self.model())
        let playlists = try named(context, "Playlist", "road", "rain")
        let songs = try named(context, "Song", "s1", "s2", "s3")
        for song in songs { try playlists[0].add(song, toKey: "songs") }
        try playlists[0].insert(songs[2], at: 0, forKey: "songs")
        try songs[1].add(playlists[1], toKey: "playlists")
        #expect(try names(playlists[0].objects(forKey: "songs")) == ["s3", "s1", "s2"])
        #expect(try names(playlists[1].objects(forKey: "songs")) == ["s2"])
        #expect(try Set(names(songs[1].objects(forKey: "playlists"))) == ["road", "rain"])
        try context.save()
        guard case .joinTable(let join) = try context.store.mapping(for: "Playlist").relationship(named: "songs")?.storage,
            let order = join.orderColumn
        else {
            Issue.record("Playlist.songs should be an ordered join table")
            return
        }
        #expect(try F.rows(path, "SELECT \(join.destinationColumn), \(order) FROM \(join.table) WHERE \(join.sourceColumn) = 1 ORDER BY \(order)") == [
            ["3", "2048"], ["1", "3072"], ["2", "4096"],
        ])
        let fresh = try reopened(path)
        let road = try one(fresh, "Playlist", "name", "road")
        #expect(try names(road.objects(forKey: "songs")) == ["s3", "s1", "s2"])
        try road.remove(try one(fresh, "Song", "name", "s1"), fromKey: "songs")
        try fresh.save()
        let again = try reopened(path)
        #expect(try names(one(again, "Playlist", "name", "road").objects(forKey: "songs")) == ["s3", "s2"])
    }

    @Test func rollbackRestoresBothSides() throws {
        let (context, _) = try F.newContext(try Self.model())
        let library = try named(context, "Library", "north")[0]
        let shelf = try named(context, "Shelf", "a")[0]
        try library.add(shelf, toKey: "shelves")
        try context.save()
        try shelf.setObject(nil, forKey: "library")
        #expect(try library.objects(forKey: "shelves").isEmpty)
        context.rollback()
        #expect(try shelf.object(forKey: "library") === library)
        #expect(try library.objects(forKey: "shelves").map(\.objectID) == [shelf.objectID])
    }
}

/// Many-to-many ordered on both sides: each side's order lives in its own `Z_FOK_` column
/// of the one join table, and changing one side must not lose the other's.
@Suite struct DoublyOrderedManyToManyTests {
    typealias F = ValidationFixtures

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Call") {
                AttributeDescription("name", .string)
                RelationshipDescription("people", to: "Person", inverse: "calls", toMany: true, ordered: true)
            }
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                RelationshipDescription("calls", to: "Call", inverse: "people", toMany: true, ordered: true)
            }
        }
    }

    private func names(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? "?" }
    }

    @Test func bothOrdersSurviveChangesFromEitherSide() throws {
        let model = try Self.model()
        let (context, path) = try F.newContext(model)
        let calls = try ["c1", "c2"].map { name -> ManagedObject in
            let call = try context.insert("Call")
            try call.set("name", name)
            return call
        }
        let people = try ["ann", "bob", "cy"].map { name -> ManagedObject in
            let person = try context.insert("Person")
            try person.set("name", name)
            return person
        }
        try calls[0].setObjects([people[2], people[0], people[1]], forKey: "people")
        try people[0].setObjects([calls[1], calls[0]], forKey: "calls")
        try context.save()
        // A fresh context changes c1's order only; nobody's `calls` is loaded.
        let fresh = try F.reopen(path, model)
        let c1 = try #require(try fresh.fetch("Call").first { try $0.get("name", as: String.self) == "c1" })
        try c1.insert(try #require(try c1.objects(forKey: "people").last), at: 0, forKey: "people")
        try fresh.save()
        let again = try F.reopen(path, model)
        let call = try #require(try again.fetch("Call").first { try $0.get("name", as: String.self) == "c1" })
        #expect(try names(call.objects(forKey: "people")) == ["bob", "cy", "ann"])
        let ann = try #require(try again.fetch("Person").first { try $0.get("name", as: String.self) == "ann" })
        #expect(try names(ann.objects(forKey: "calls")) == ["c2", "c1"])
        // And the other way round: ann reorders her calls; c1's order of people stays.
        try ann.setObjects([call, try #require(try ann.objects(forKey: "calls").first)], forKey: "calls")
        try again.save()
        let last = try F.reopen(path, model)
        let c1Again = try #require(try last.fetch("Call").first { try $0.get("name", as: String.self) == "c1" })
        #expect(try names(c1Again.objects(forKey: "people")) == ["bob", "cy", "ann"])
        let annAgain = try #require(try last.fetch("Person").first { try $0.get("name", as: String.self) == "ann" })
        #expect(try names(annAgain.objects(forKey: "calls")) == ["c1", "c2"])
    }
}
