import Foundation
import Synchronization

/// What an attribute slot of an object holds: a value, or a stored value that is read only
/// when it is asked for (``DeferredValue``). The row cursor fills objects' slots with these;
/// a deferred value costs a fetch nothing more than a pointer, and nothing at all in a row
/// without one.
enum AttributeSlot: Sendable, Hashable {
    /// A value (nil: none).
    case value(AttributeValue?)
    /// A stored value not decoded with its row.
    case deferred(DeferredValue)

    /// The value, when it is at hand without reading anything: nil for a deferred one.
    var valueAtHand: AttributeValue?? {
        if case .value(let value) = self { return .some(value) }
        return nil
    }

    /// The deferred value, if the slot holds one.
    var deferred: DeferredValue? {
        if case .deferred(let deferred) = self { return deferred }
        return nil
    }
}

/// A stored attribute value that is not decoded with its row:
///
/// - kept in an external data file (`0x02` + the file's name): the file is read the first
///   time the value is asked for, and its bytes kept;
/// - stored in a form its attribute's type cannot be read from (text `"abc"` in a Date
///   column): asking for it is an error naming the object, attribute, column, what was
///   found and what was expected.
///
/// Either way a save writes it back as stored: an object whose other values change keeps
/// its row's reference (no file is copied or removed) and its unreadable value.
///
/// A class so that an object's slot, its snapshot and an undo record share one, and the
/// bytes read once are there for all of them; its one mutable part, those bytes, is behind
/// a lock.
final class DeferredValue: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case external(ExternalDataReference)
        case unreadable(stored: SQLiteValue, failure: RowCodec.DecodingFailure)
    }

    let kind: Kind
    private let loaded = Mutex<Data?>(nil)

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The external data file's reference, when the value is kept in one.
    var externalReference: ExternalDataReference? {
        if case .external(let reference) = kind { return reference }
        return nil
    }

    /// The value as its column holds it (what a save writes back).
    var stored: SQLiteValue {
        switch kind {
        case .external(let reference): .blob(ExternalBinaryData.encodeReference(reference.name))
        case .unreadable(let stored, _): stored
        }
    }

    /// The value of attribute `index` of the object of `mapping` with key `primaryKey`:
    /// the external file's bytes (read now, or kept from an earlier read), or the error
    /// that says why it cannot be read.
    func value(of mapping: EntityMapping, attribute index: Int, primaryKey: Int64) throws(StoreError) -> AttributeValue {
        let key = mapping.attributeNames[index]
        switch kind {
        case .unreadable(_, let failure):
            throw .malformedValue(
                entity: mapping.name, primaryKey: primaryKey, key: key, column: mapping.attributes[index].column ?? "",
                found: failure.found, expected: failure.expected)
        case .external(let reference):
            if let data = loaded.withLock({ $0 }) { return .data(data) }
            switch reference.contents() {
            case .success(let data):
                loaded.withLock { $0 = data }
                return .data(data)
            case .failure(.missing):
                throw .externalDataMissing(entity: mapping.name, primaryKey: primaryKey, key: key, file: reference.path)
            case .failure(let problem):
                throw .externalDataUnreadable(entity: mapping.name, primaryKey: primaryKey, key: key, file: reference.path, problem: problem)
            }
        }
    }

    static func == (a: DeferredValue, b: DeferredValue) -> Bool { a === b || a.kind == b.kind }

    func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
