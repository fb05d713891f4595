import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

extension ModelIOTests {
    /// Damaged caches and model files never crash: each either decodes or is a typed error.
    @Suite struct DamagedInputTests {
        /// A small deterministic generator, so a failure can be replayed.
        private struct Generator {
            var state: UInt64
            mutating func next(_ bound: Int) -> Int {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Int((state >> 33) % UInt64(max(bound, 1)))
            }
        }

        @Test func flippedBytesInACacheArchive() throws {
            let (builder, root) = try ModelArchiveFixture.archive()
            let archive = try builder.encoded(root: root)
            var generator = Generator(state: 42)
            var decoded = 0, rejected = 0
            for _ in 0..<400 {
                var bytes = [UInt8](archive)
                for _ in 0..<(1 + generator.next(4)) {
                    bytes[generator.next(bytes.count)] = UInt8(generator.next(256))
                }
                do {
                    _ = try ModelCache(compressed: RawDeflate.compress(Data(bytes)))
                    decoded += 1
                } catch is ModelCacheError {
                    rejected += 1
                }
            }
            #expect(decoded + rejected == 400)
        }

        @Test func everyTruncationOfACacheBlob() throws {
            let (builder, root) = try ModelArchiveFixture.archive()
            let blob = try builder.compressed(root: root)
            for length in stride(from: 0, to: blob.count, by: 7) {
                #expect(throws: ModelCacheError.self) { try ModelCache(compressed: blob.prefix(length)) }
            }
        }

        @Test func truncatedRealCaches() throws {
            guard let corpus = try Fixtures.requireCorpus("truncatedRealCaches") else { return }
            for path in ModelIOCorpus.stores(in: corpus).prefix(6) {
                let store = try PersistentStore(path: path)
                guard store.schema.table("Z_MODELCACHE") != nil,
                    case .blob(let blob)? = try store.sampler.modelCacheContents().first
                else { continue }
                for fraction in [0.1, 0.5, 0.9, 0.999] {
                    #expect(throws: ModelCacheError.self) { try ModelCache(compressed: blob.prefix(Int(Double(blob.count) * fraction))) }
                }
            }
        }

        @Test func truncatedAndScrambledXML() throws {
            let text = XcodeModelFixtures.contents("""
                <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/></entity>
                <entity name="Shelf"><relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/></entity>
                """)
            let folder = try Fixtures.temporaryDirectory()
            var generator = Generator(state: 7)
            for i in 0..<120 {
                var bytes = [UInt8](text.utf8)
                if i % 2 == 0 {
                    bytes = Array(bytes.prefix(generator.next(bytes.count)))
                } else {
                    bytes[generator.next(bytes.count)] = UInt8(generator.next(128))
                }
                let path = try XcodeModelFixtures.writeVersion("M\(i)", contents: String(decoding: bytes, as: UTF8.self), in: folder)
                do {
                    let file = try ModelFile(path: path)
                    // A cut-short file must never load as a smaller model.
                    #expect(i % 2 == 1, "a truncated file (\(bytes.count) bytes) loaded with \(file.model.entities.count) entities")
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }
}
