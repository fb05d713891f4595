import Foundation

/// Binary attributes that allow external storage hold a tagged blob: `0x01` then the bytes
/// (stored inline), or `0x02` then the name of a file in the store's
/// `.<store name>_SUPPORT/_EXTERNAL_DATA/` folder (stored outside the database).
struct ExternalBinaryData: Sendable {
    /// The `_EXTERNAL_DATA` folder beside the store.
    let directory: String

    init(storePath: String) {
        let url = URL(fileURLWithPath: storePath)
        let name = url.deletingPathExtension().lastPathComponent
        directory = url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT/_EXTERNAL_DATA").path
    }

    static let inlineTag: UInt8 = 0x01
    static let externalTag: UInt8 = 0x02

    /// The value of a tagged blob; an untagged blob (written by a tool that ignored the
    /// flag) is taken as it is.
    static func decode(_ blob: Data, in location: ExternalBinaryData?) throws(RowCodec.DecodingFailure) -> AttributeValue {
        guard let tag = blob.first else { return .data(blob) }
        switch tag {
        case inlineTag:
            return .data(blob.dropFirst())
        case externalTag:
            let name = String(decoding: blob.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            guard let location, !name.isEmpty, !name.contains("/") else {
                throw RowCodec.DecodingFailure(found: "an external data reference", expected: "Binary (no store folder to look in)")
            }
            let file = (location.directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw RowCodec.DecodingFailure(found: "a reference to external data file \(file), which is missing", expected: "Binary")
            }
            return .data(data)
        default:
            return .data(blob)
        }
    }

    /// The tagged blob GraphStore writes: always inline.
    static func encodeInline(_ data: Data) -> Data {
        var tagged = Data([inlineTag])
        tagged.append(data)
        return tagged
    }
}
