import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

/// `NSSecureUnarchiveFromData`'s archives: keyed archives of Foundation's plist classes read
/// into ``PropertyListValue``s (archives made by hand, object by object, as Apple's archiver
/// lays them out, and by Foundation's own `NSKeyedArchiver`), written back in that shape, and
/// hostile bytes refused with an error, never a crash.
extension ModelIOTests {
    @Suite struct PropertyListArchiveTests {
        /// Every class by hand: plain strings, numbers, Booleans and data, and the objects
        /// `NSDate`, `NSURL` (relative, with a base), `NSUUID`, `NSNull`, `NSMutableString`,
        /// `NSMutableData`, `NSDecimalNumber`, arrays, sets and dictionaries, nested.
        @Test func readsEachClassOfAHandMadeArchive() throws {
            let b = ArchiveBuilder()
            let date = b.object("NSDate", ["NS.time": 536_457_600.25])
            let base = b.object("NSURL", ["NS.base": b.null, "NS.relative": b.string("https://example.com/books/")])
            let url = b.object("NSURL", ["NS.base": base, "NS.relative": b.string("dune.html")])
            let uuid = b.object("NSUUID", ["NS.uuidbytes": Data((0..<16).map { UInt8($0) })])
            let null = b.object("NSNull", [:])
            let mutableString = b.object("NSMutableString", supers: ["NSString"], ["NS.string": "mutable"])
            let mutableData = b.object("NSMutableData", supers: ["NSData"], ["NS.data": Data([1, 2])])
            let decimal = b.object(
                "NSDecimalNumber", supers: ["NSNumber", "NSValue"],
                ["NS.mantissa": Data([0x39, 0x30] + [UInt8](repeating: 0, count: 14)), "NS.exponent": -2, "NS.negative": true, "NS.length": 1])
            let set = b.object("NSSet", ["NS.objects": [b.add(1), b.add(2)]])
            let inner = b.array([b.add(true), b.add(2.5), b.add(-7), b.add(Data([0xCA, 0xFE]))], className: "NSMutableArray")
            let root = b.dictionary([
                ("date", date), ("url", url), ("uuid", uuid), ("null", null), ("mutable", mutableString), ("bytes", mutableData),
                ("price", decimal), ("set", set), ("list", inner), ("plain", b.string("text")),
            ])
            let value = try PropertyListValue(keyedArchive: try b.encoded(root: root))
            guard case .dictionary(let entries) = value else { Issue.record("not a dictionary: \(value)"); return }
            #expect(entries["date"] == .date(Date(timeIntervalSinceReferenceDate: 536_457_600.25)))
            let read = try #require({ if case .url(let u)? = entries["url"] { u } else { nil } }())
            #expect(read.absoluteString == "https://example.com/books/dune.html")
            #expect(read.relativeString == "dune.html")
            #expect(read.baseURL?.absoluteString == "https://example.com/books/")
            #expect(entries["uuid"] == .uuid(UUID(uuidString: "00010203-0405-0607-0809-0A0B0C0D0E0F")!))
            #expect(entries["null"] == .null)
            #expect(entries["mutable"] == .string("mutable"))
            #expect(entries["bytes"] == .data(Data([1, 2])))
            #expect(entries["price"] == .decimal(Decimal(string: "-123.45")!))
            #expect(entries["set"] == .set([.integer(1), .integer(2)]))
            #expect(entries["list"] == .array([.bool(true), .double(2.5), .integer(-7), .data(Data([0xCA, 0xFE]))]))
            #expect(entries["plain"] == .string("text"))
        }

        /// A value of every kind, nested, written and read back equal; Swift-side conversions
        /// agree (`foundationValue` casts as Core Data's values do).
        @Test func writtenArchivesReadBackEqual() throws {
            let value: PropertyListValue = [
                "tags": ["fiction", "classic", "ünïcödé ✓"],
                "counts": [0, 255, 256, 65_536, 4_294_967_296, -1, .integer(Int64.min)],
                "reals": [0.5, -0.0, .double(.infinity), 1e300],
                "flags": [true, false],
                "when": .date(Date(timeIntervalSinceReferenceDate: 12.5)),
                "bytes": .data(Data(repeating: 7, count: 40)),
                "link": .url(URL(string: "page/2", relativeTo: URL(string: "https://example.com/book/"))!),
                "file": .url(URL(fileURLWithPath: "/tmp/a b.txt")),
                "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
                "nothing": .null,
                "price": .decimal(Decimal(string: "19.99")!),
                "set": .set(["a", "b", "c"]),
                7: [["nested": [[1, 2], []]]],
                "long": .string(String(repeating: "x", count: 300)),
            ]
            let bytes = try value.keyedArchive()
            #expect(try PropertyListValue(keyedArchive: bytes) == value)
            // The same value, built in another order, gives the same bytes.
            let again: PropertyListValue = .set(["c", "a", "b"])
            #expect(try again.keyedArchive() == (try PropertyListValue.set(["a", "b", "c"]).keyedArchive()))
            let tags = try #require(try PropertyListValue(keyedArchive: try PropertyListValue.array(["a", "b"]).keyedArchive()).foundationValue as? [String])
            #expect(tags == ["a", "b"])
            let back = try #require(PropertyListValue(foundationValue: ["n": 3, "b": true, "d": 2.5, "list": [URL(string: "https://x.org")!]] as [String: Any]))
            #expect(back == ["n": 3, "b": true, "d": 2.5, "list": [.url(URL(string: "https://x.org")!)]])
            #expect(PropertyListValue.unarchivableTypeName(["ok", NSObject()] as [Any]) == "NSObject")
        }

        /// The archive is laid out as Apple's archiver lays it out (the corpus's
        /// `Z_MODELCACHE` archives): `$version` 100000, `$archiver`, `$top.root` = UID 1,
        /// `$objects[0]` = `$null`, an object before what it holds and its class entry after.
        @Test func writtenArchivesHaveTheShapeOfApplesArchiver() throws {
            let bytes = try PropertyListValue.array(["a", "b"]).keyedArchive()
            #expect(bytes.starts(with: Array("bplist00".utf8)))
            guard case .dictionary(let top) = try BinaryPropertyList.parse(bytes) else { Issue.record("no top dictionary"); return }
            #expect(top["$version"] == .integer(100_000))
            #expect(top["$archiver"] == .string("NSKeyedArchiver"))
            #expect(top["$top"] == .dictionary(["root": .reference(1)]))
            #expect(top["$objects"] == .array([
                .string("$null"),
                .dictionary(["NS.objects": .array([.reference(2), .reference(3)]), "$class": .reference(4)]),
                .string("a"), .string("b"),
                .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])]),
            ]))
        }

        /// Foundation's `NSKeyedUnarchiver` on Linux reads what GraphStore wrote (trusted
        /// bytes: GraphStore's own), and GraphStore reads what Foundation's `NSKeyedArchiver`
        /// wrote: two archivers agree on the format.
        @Test func foundationsArchiverAndGraphStoresReadEachOther() throws {
            let value: PropertyListValue = ["title": "Dune", "pages": 412, "tags": ["fiction", "classic"], "rating": 4.5, "read": true]
            let ours = try value.keyedArchive()
            let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self]
            let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: ours) as? NSDictionary)
            #expect(decoded["title"] as? String == "Dune")
            #expect((decoded["pages"] as? NSNumber)?.intValue == 412)
            #expect(decoded["tags"] as? [String] == ["fiction", "classic"])
            #expect((decoded["rating"] as? NSNumber)?.doubleValue == 4.5)
            #expect((decoded["read"] as? NSNumber)?.boolValue == true)

            let url = URL(string: "https://example.com/a?b=1")!
            let theirs = try NSKeyedArchiver.archivedData(
                withRootObject: NSArray(array: [NSString(string: "x"), NSNumber(value: 3), NSDate(timeIntervalSinceReferenceDate: 10), NSURL(string: url.absoluteString)!, NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!]),
                requiringSecureCoding: true)
            let read = try PropertyListValue(keyedArchive: theirs)
            #expect(read == [
                "x", 3, .date(Date(timeIntervalSinceReferenceDate: 10)), .url(url),
                .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            ])
        }

        /// A class outside the allowed list, at the top or nested, is refused by its name, as
        /// `NSSecureUnarchiveFromData` refuses it; so is a class GraphStore does not know,
        /// whatever superclasses the archive claims for it.
        @Test func classesOutsideTheAllowedListAreRefusedByName() throws {
            let b = ArchiveBuilder()
            let ordered = b.object("NSOrderedSet", ["NS.objects": [b.string("a")]])
            let root = b.array([b.string("ok"), ordered])
            #expect(throws: TransformerError(.classNotAllowed("NSOrderedSet"), transformerName: "NSSecureUnarchiveFromData")) {
                try PropertyListValue(keyedArchive: try b.encoded(root: root))
            }
            let c = ArchiveBuilder()
            let evil = c.object("EvilArray", supers: ["NSArray"], ["NS.objects": []])
            #expect(throws: TransformerError(.classNotAllowed("EvilArray"), transformerName: "NSSecureUnarchiveFromData")) {
                try PropertyListValue(keyedArchive: try c.encoded(root: evil))
            }
            // A transformer that allows arrays only refuses the strings inside one, by name.
            final class ArraysOnly: SecureUnarchiveFromDataTransformer, @unchecked Sendable {
                override class var allowedTopLevelClassNames: Set<String> { ["NSArray"] }
            }
            let strings = try PropertyListValue.array(["a"]).keyedArchive()
            #expect(throws: TransformerError(.classNotAllowed("NSString"), transformerName: "NSSecureUnarchiveFromData")) { try ArraysOnly().decode(strings) }
            #expect(throws: TransformerError(.classNotAllowed("NSString"), transformerName: "NSSecureUnarchiveFromData")) { try ArraysOnly().encode(["a"]) }
            #expect(ArraysOnly().transformedValue(strings) == nil)
        }

        /// Every truncation of a real archive, and every single-byte change of one, reads as a
        /// value or a typed error: never a crash or a hang.
        @Test func truncatedAndDamagedArchivesGiveErrors() throws {
            let value: PropertyListValue = ["tags": ["a", "b"], "when": .date(.init(timeIntervalSinceReferenceDate: 3)), "id": .uuid(UUID())]
            let bytes = try value.keyedArchive()
            for length in 0..<bytes.count {
                #expect(throws: TransformerError.self) { try PropertyListValue(keyedArchive: bytes.prefix(length)) }
            }
            var readable = 0
            for position in 0..<bytes.count {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    var damaged = bytes
                    damaged[position] ^= flip
                    if (try? PropertyListValue(keyedArchive: damaged)) != nil { readable += 1 }
                }
            }
            #expect(readable < bytes.count * 3)
        }

        /// Archives made up to do harm: an array that holds itself, references past the
        /// table, a count larger than the data, arrays that share arrays 60 levels deep (300
        /// bytes standing for 2^60 values), deep nesting, XML, another archiver, no root.
        @Test func hostileArchivesAreRefused() throws {
            func reason(_ data: Data) -> TransformerError.Reason? {
                do {
                    _ = try PropertyListValue(keyedArchive: data)
                    return nil
                } catch { return error.reason }
            }
            func unreadable(_ data: Data, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
                guard case .unreadableArchive(let why)? = reason(data) else {
                    Issue.record("read: \(String(describing: reason(data)))", sourceLocation: sourceLocation)
                    return
                }
                #expect(why.contains(text), "\(why)", sourceLocation: sourceLocation)
            }
            let cycle = ArchiveBuilder()
            let me = cycle.reserve()
            cycle.fill(me, "NSArray", ["NS.objects": [me]])
            unreadable(try cycle.encoded(root: me), "contains itself")

            let outside = ArchiveBuilder()
            unreadable(try outside.encoded(root: outside.array([["CF$UID": 999]])), "outside the object table")

            // An array claiming 2^40 members in a few bytes.
            var huge = Array("bplist00".utf8) + [0xAF, 0x14] + [0, 0, 1, 0, 0, 0, 0, 0]
            let table = huge.count
            huge += [8] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
            unreadable(Data(huge), "not a property list")

            let shared = ArchiveBuilder()
            var level = shared.string("leaf")
            for _ in 0..<60 { level = shared.array([level, level]) }
            unreadable(try shared.encoded(root: level), "reuses objects")

            let deep = ArchiveBuilder()
            var nested = deep.string("bottom")
            for _ in 0..<200 { nested = deep.array([nested]) }
            unreadable(try deep.encoded(root: nested), "deeper than")

            let xml = try PropertyListSerialization.data(fromPropertyList: ["$archiver": "NSKeyedArchiver"], format: .xml, options: 0)
            unreadable(xml, "not a binary property list")
            unreadable(Data("not an archive at all".utf8), "not a binary property list")
            let other = try PropertyListSerialization.data(fromPropertyList: ["$archiver": "Other", "$objects": [], "$top": [:]], format: .binary, options: 0)
            unreadable(other, "not NSKeyedArchiver")
            let rootless = try PropertyListSerialization.data(fromPropertyList: ["$objects": ["$null"], "$top": [:]], format: .binary, options: 0)
            unreadable(rootless, "no root object")
            #expect(SecureUnarchiveFromDataTransformer().transformedValue(Data("junk".utf8)) == nil)
        }
    }
}
