/// Something odd in a model that was loaded anyway, and what was done about it.
///
/// Real models are sometimes slightly inconsistent (an inverse that does not point back,
/// a default value that does not parse). Where a faithful reading is still possible, the
/// readers keep going and record one of these instead of failing.
///
/// ```swift
/// let file = try ModelFile(path: "App.xcdatamodeld")
/// for warning in file.warnings { print(warning) }
/// // Book.category: inverse books on BookCategory names shelf as its inverse; ignored
/// ```
public struct ModelWarning: Sendable, Hashable, CustomStringConvertible {
    /// The entity concerned, if any.
    public var entity: String?
    /// The property (or index, constraint) concerned, if any.
    public var property: String?
    /// What was found and what was done.
    public var message: String

    /// Creates a warning.
    public init(entity: String? = nil, property: String? = nil, _ message: String) {
        self.entity = entity
        self.property = property
        self.message = message
    }

    public var description: String {
        switch (entity, property) {
        case (let e?, let p?): "\(e).\(p): \(message)"
        case (let e?, nil): "\(e): \(message)"
        case (nil, let p?): "\(p): \(message)"
        case (nil, nil): message
        }
    }
}
