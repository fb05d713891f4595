import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

/// Property lists and keyed archives whose objects reuse objects: an array holding the same
/// array twice, which holds another twice, 60 levels deep, is 300 bytes and stands for 2^60
/// values. Each object is decoded once (Core Data's decoder shares them too), and what a
/// value stands for written out in full is bounded by the input's size: such input is
/// refused with an error naming the part of the store, at once, and nothing is changed.
extension ModelIOTests {
    @Suite struct SharedObjectsTests {
        /// A binary property list of `levels` arrays, each holding the one below it twice,
        /// above the integer 1; with `key`, the top is a dictionary `{key: top array}`.
        static func sharedArrays(levels: Int, key: String? = nil) -> Data {
            var objects: [[UInt8]] = [[0x10, 0x01]]
            for level in 1...levels { objects.append([0xA2, UInt8(level - 1), UInt8(level - 1)]) }
            if let key {
                objects.append([0x50 | UInt8(key.utf8.count)] + Array(key.utf8))
                objects.append([0xD1, UInt8(objects.count - 1), UInt8(levels)])
            }
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            for object in objects {
                offsets.append(bytes.count)
                bytes += object
            }
            let table = bytes.count
            precondition(table < 256 && objects.count < 256)
            bytes += offsets.map(UInt8.init)
            bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
            bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count - 1)] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
            return Data(bytes)
        }

        /// 10 levels stand for 2,047 values: read, each of the 11 objects decoded once.
        @Test func aReusedObjectIsDecodedOnce() throws {
            let data = Self.sharedArrays(levels: 10)
            let parsed = try BinaryPropertyList.parseCountingObjects(data)
            #expect(parsed.decodedObjects == 11)
            func leaves(_ value: ArchiveValue) -> Int {
                if case .array(let items) = value { return items.reduce(0) { $0 + leaves($1) } }
                return value == .integer(1) ? 1 : 0
            }
            #expect(leaves(parsed.value) == 1024)
        }

        /// 60 levels are refused, naming the object, within the limit for the data's size.
        @Test func objectsReusedLevelAfterLevelAreRefused() throws {
            let data = Self.sharedArrays(levels: 60)
            #expect(data.count < 320)
            #expect { try BinaryPropertyList.parse(data) } throws: { error in
                let limit = BinaryPropertyList.expansionLimit(forBytes: data.count)
                return "\(error)".contains("stands for more than \(limit) values: it reuses objects that reuse objects")
            }
        }

        /// In `Z_METADATA`: opening the store fails with an error naming Z_METADATA, and
        /// the file is as it was.
        @Test func sharedObjectsInTheMetadataAreAnErrorNamingIt() throws {
            let path = try Fixtures.newStorePath()
            _ = try PersistentStore.create(at: path, model: Fixtures.bookStoreModel())
            let connection = try Connection(path: path, mode: .readWrite)
            try connection.prepare("UPDATE Z_METADATA SET Z_PLIST = ?").execute([.blob(Self.sharedArrays(levels: 60, key: "NSStoreType"))])
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            let before = Fixtures.fingerprint(path)
            #expect { try PersistentStore(path: path) } throws: { error in
                guard case StoreError.malformedStore(_, let reason) = error else { return false }
                return reason.hasPrefix("Z_METADATA.Z_PLIST is damaged") && reason.contains("reuses objects")
            }
            #expect(Fixtures.fingerprint(path) == before)
        }

        /// Deflated in `Z_MODELCACHE`: the cache is not used, and says why.
        @Test func sharedObjectsInTheModelCacheAreAnError() throws {
            let blob = try RawDeflate.compress(Self.sharedArrays(levels: 60, key: "$objects"))
            #expect { try ModelCache(compressed: blob) } throws: { error in
                guard case ModelCacheError.notAPropertyList(let reason) = error else { return false }
                return reason.contains("reuses objects")
            }
        }

        /// A keyed archive whose predicate reuses its subpredicate at every level (objects
        /// refer to each other by index): formatting it stops once the archive's budget is
        /// spent, and the model is refused.
        @Test func anArchivedPredicateReusedLevelAfterLevelIsRefused() throws {
            let b = ArchiveBuilder()
            var predicate = b.object("NSTruePredicate", [:])
            for _ in 1...60 {
                predicate = b.object("NSCompoundPredicate", ["NSCompoundPredicateType": 1, "NSSubpredicates": b.array([predicate, predicate])])
            }
            let entity = b.object("NSEntityDescription", ["NSEntityName": b.string("Book"), "NSProperties": b.knownKeysDictionary([])])
            let request = b.object("NSFetchRequest", ["NSEntityName": b.string("Book"), "NSPredicate": predicate])
            let root = b.object("NSManagedObjectModel", [
                "NSEntities": b.knownKeysDictionary([("Book", entity)]),
                "NSFetchRequestTemplates": b.dictionary([("deep", request)]),
            ])
            let data = try b.encoded(root: root)
            let archive = try KeyedArchive(propertyList: data)
            #expect(ArchivedPredicateFormatter(archive: archive).predicate(.reference(predicate["CF$UID"] ?? 0)) == nil)
            #expect(archive.budget.isSpent)
            #expect { try ModelCache(archive: data) } throws: { error in
                guard case ModelCacheError.malformedArchive(nil, nil, let reason) = error else { return false }
                return reason.contains("reuse objects that reuse objects")
            }
        }

        /// A Decimal archived as a plain real (a default value, a predicate's constant) reads
        /// as its shortest digits, as a stored real does, not as the double's binary
        /// expansion (`3.333333333299999232`).
        @Test func aRealReadAsADecimalKeepsItsShortestDigits() throws {
            let b = ArchiveBuilder()
            let real = b.add(3.3333333333)
            let archive = try KeyedArchive(propertyList: try b.encoded(root: real))
            let decimal = try #require(archive.decimal(.reference(real["CF$UID"] ?? 0)))
            #expect("\(decimal)" == "3.3333333333")
        }

        /// The same predicate reused 3 levels deep is an ordinary predicate.
        @Test func anArchivedPredicateReusedAFewTimesIsRead() throws {
            let b = ArchiveBuilder()
            var predicate = b.object("NSTruePredicate", [:])
            for _ in 1...3 {
                predicate = b.object("NSCompoundPredicate", ["NSCompoundPredicateType": 1, "NSSubpredicates": b.array([predicate, predicate])])
            }
            let archive = try KeyedArchive(propertyList: try b.encoded(root: predicate))
            let text = ArchivedPredicateFormatter(archive: archive).predicate(.reference(predicate["CF$UID"] ?? 0))
            #expect(text?.components(separatedBy: "TRUEPREDICATE").count == 9)
            #expect(!archive.budget.isSpent)
        }
    }
}
