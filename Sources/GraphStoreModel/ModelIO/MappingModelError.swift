/// Why a mapping model (`.xcmappingmodel`) cannot be read. Every case names the file;
/// a malformed part also names the entity mapping and property where it is.
public enum MappingModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at the path.
    case fileNotFound(path: String)
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not an Xcode mapping model.
    case notAMappingModel(path: String, reason: String)
    /// A part of the mapping model is missing or cannot be understood.
    case malformed(path: String, mapping: String?, property: String?, reason: String)

    /// The file at fault.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .unreadable(let path, _), .notAMappingModel(let path, _), .malformed(let path, _, _, _): path
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): no such mapping model"
        case .unreadable(let path, let reason):
            return "\(path): the mapping model cannot be read (\(reason))"
        case .notAMappingModel(let path, let reason):
            return "\(path): not an Xcode mapping model (\(reason))"
        case .malformed(let path, let mapping, let property, let reason):
            let place = [mapping.map { "mapping \($0)" }, property.map { "property \($0)" }].compactMap { $0 }.joined(separator: ", ")
            return "\(path): \(place.isEmpty ? "" : place + ": ")\(reason)"
        }
    }
}
