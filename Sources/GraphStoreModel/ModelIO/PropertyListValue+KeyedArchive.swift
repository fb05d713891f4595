import Foundation

extension PropertyListValue {
    /// Reads an `NSKeyedArchiver` archive of Foundation's plist classes, as
    /// `NSSecureUnarchiveFromData` reads a Transformable value: the classes
    /// `NSSecureUnarchiveFromDataTransformer` allows by default (and their mutable variants),
    /// at every level. Damaged, truncated or made-up bytes, and any other class (named in the
    /// error), are a ``TransformerError``, never a crash.
    ///
    /// ```swift
    /// let value = try PropertyListValue(keyedArchive: bytes)    // .array([.string("fiction"), …])
    /// ```
    public init(keyedArchive data: Data) throws(TransformerError) {
        self = try PropertyListValue(keyedArchive: data, allowing: ArchivedFoundationClass.secureUnarchiveDefaults, transformerName: ValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue)
    }

    /// Reads an archive allowing the classes named in `allowed` (and their subclasses).
    init(keyedArchive data: Data, allowing allowed: Set<String>, transformerName: String) throws(TransformerError) {
        do {
            self = try PropertyListArchiveReader.read(data, allowing: allowed)
        } catch {
            throw TransformerError(error, transformerName: transformerName)
        }
    }

    /// The value as `NSKeyedArchiver` archives it (a binary property list), what
    /// `NSSecureUnarchiveFromData` stores for a Transformable attribute.
    ///
    /// ```swift
    /// let bytes = try PropertyListValue.array(["fiction"]).keyedArchive()   // "bplist00…"
    /// ```
    public func keyedArchive() throws(TransformerError) -> Data {
        do {
            return try PropertyListArchiveWriter.write(self)
        } catch {
            throw TransformerError(error, transformerName: ValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue)
        }
    }
}
