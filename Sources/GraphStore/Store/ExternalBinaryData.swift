import Foundation

/// Core Data's tagged blobs, in the columns of Binary and Transformable attributes that
/// allow external storage (and only there: a Binary column without the flag may start with
/// these bytes by chance, see `docs/values.md`):
///
/// - `0x01` + the value's bytes: stored inline;
/// - `0x02` + the 36-character upper-case UUID naming a file of the store's
///   `_EXTERNAL_DATA` folder + a NUL byte (38 bytes in all): stored outside the database.
///
/// Core Data decides per value; GraphStore writes values larger than
/// ``PersistentStore/externalDataThreshold`` to a file, smaller ones inline.
enum ExternalBinaryData {
    static let inlineTag: UInt8 = 0x01
    static let externalTag: UInt8 = 0x02

    /// What a stored blob of such a column holds: the value, or a deferred reference to its
    /// file in `folder`. An untagged blob (written by a tool that ignored the flag) is taken
    /// as it is; a reference whose name could reach outside the folder is unreadable.
    static func decode(_ blob: Data, as type: AttributeType, in folder: StoreSupportFolder) -> AttributeSlot {
        guard let tag = blob.first else { return .value(.data(blob)) }
        switch tag {
        case inlineTag:
            return .value(.data(Data(blob.dropFirst())))
        case externalTag:
            let name = String(decoding: blob.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            guard ExternalDataReference.isSafe(name) else {
                let failure = RowCodec.DecodingFailure(found: "an external data reference to \"\(name.prefix(40))\", which is not a file name", expected: type.xcodeName, stored: .blob(blob))
                return .deferred(DeferredValue(.unreadable(stored: .blob(blob), failure: failure)))
            }
            return .deferred(DeferredValue(.external(ExternalDataReference(name: name, folder: folder))))
        default:
            return .value(.data(blob))
        }
    }

    /// `0x01` + the bytes: a value stored inline.
    static func encodeInline(_ data: Data) -> Data {
        var tagged = Data([inlineTag])
        tagged.append(data)
        return tagged
    }

    /// `0x02` + the file's name + NUL: a value stored in a file.
    static func encodeReference(_ name: String) -> Data {
        var tagged = Data([externalTag])
        tagged.append(Data(name.utf8))
        tagged.append(0)
        return tagged
    }
}
