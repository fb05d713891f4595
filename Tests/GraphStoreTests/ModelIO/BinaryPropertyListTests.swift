import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

/// GraphStore's own binary property-list reader: the same values as Foundation on real
/// stores, and an error (never a crash) on damaged bytes.
@Suite struct BinaryPropertyListTests {
    private func metadataBlobs(_ corpus: URL) throws -> [Data] {
        try ModelIOCorpus.stores(in: corpus).compactMap { path in
            let raw = try Connection(path: ReadOnlyAccess.immutable.uri(path), mode: .readOnly)
            guard case .blob(let data)? = try raw.scalar("SELECT Z_PLIST FROM Z_METADATA") else { return nil }
            return data
        }
    }

    @Test func readsWhatFoundationReadsOnEveryCorpusStore() throws {
        guard let corpus = try Fixtures.requireCorpus("readsWhatFoundationReadsOnEveryCorpusStore") else { return }
        let blobs = try metadataBlobs(corpus)
        #expect(blobs.count >= 20)
        for blob in blobs {
            let ours = try BinaryPropertyList.parse(blob)
            let theirs = try ArchiveValue(propertyList: PropertyListSerialization.propertyList(from: blob, options: [], format: nil))
            #expect(ours == theirs)
        }
    }

    @Test func writtenByFoundationReadBack() throws {
        let dictionary: [String: Any] = [
            "s": "text ✓", "i": 42, "big": Int64.max, "neg": -7, "d": 2.5, "b": true, "data": Data([1, 2, 3]),
            "a": [1, "two", ["three": 3]], "date": Date(timeIntervalSinceReferenceDate: 100),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        guard case .dictionary(let fields) = try BinaryPropertyList.parse(data) else {
            Issue.record("not a dictionary")
            return
        }
        #expect(fields["s"] == .string("text ✓"))
        #expect(fields["i"] == .integer(42))
        #expect(fields["big"] == .integer(Int64.max))
        #expect(fields["neg"] == .integer(-7))
        #expect(fields["d"] == .real(2.5))
        #expect(fields["b"] == .bool(true))
        #expect(fields["data"] == .data(Data([1, 2, 3])))
        #expect(fields["a"] == .array([.integer(1), .string("two"), .dictionary(["three": .integer(3)])]))
        #expect(fields["date"] == .date(Date(timeIntervalSinceReferenceDate: 100)))
    }

    @Test func damagedBytesGiveErrorsNotCrashes() throws {
        guard let corpus = try Fixtures.requireCorpus("damagedBytesGiveErrorsNotCrashes") else { return }
        var generator = SeededGenerator(state: 0x9E37_79B9)
        var failures = 0
        for blob in try metadataBlobs(corpus).prefix(6) {
            for _ in 0..<1500 {
                var bytes = [UInt8](blob)
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0..<min(40, bytes.count), using: &generator)) }
                do { _ = try BinaryPropertyList.parse(Data(bytes)) } catch { failures += 1 }
            }
        }
        #expect(failures > 0)
    }

    @Test func cyclesAndHugeCountsAreRefused() throws {
        // An array (object 0) whose only member is itself.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = bytes.count
        bytes += [0x08]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(throws: BinaryPropertyList.Failure.self) { try BinaryPropertyList.parse(Data(bytes)) }
    }
}

