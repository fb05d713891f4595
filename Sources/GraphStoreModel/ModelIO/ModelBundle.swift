import Foundation

/// A versioned Xcode model bundle (`Name.xcdatamodeld`): its versions and which is current.
///
/// Each version is a `VersionName.xcdatamodel` folder inside the bundle. The current one is
/// named by `.xccurrentversion` (an XML property list whose `_XCCurrentVersionName` is
/// `VersionName.xcdatamodel`); a bundle with a single version needs no such file.
///
/// ```swift
/// let bundle = try ModelBundle(path: "App.xcdatamodeld")
/// bundle.versions          // ["App", "App 2", "App 3"]
/// bundle.currentVersion    // "App 3"
/// ```
public struct ModelBundle: Sendable, Hashable {
    /// The bundle folder, as given.
    public let path: String
    /// The version names (folder names without `.xcdatamodel`), in natural order
    /// (`Model 2` before `Model 10`).
    public let versions: [String]
    /// The current version, or nil when the bundle does not say and has several versions.
    public let currentVersion: String?
    /// Why ``currentVersion`` is nil, when it is.
    public let currentVersionProblem: String?

    /// Lists a bundle's versions and reads `.xccurrentversion`.
    public init(path: String) throws(ModelFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        guard isDirectory.boolValue else { throw .notAModel(path: path, reason: "a model bundle is a folder, this is a file") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: ModelIOText.shortError(error))
        }
        let versions = names.filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
        guard !versions.isEmpty else { throw .notAModel(path: path, reason: "the bundle contains no .xcdatamodel version") }
        self.path = path
        self.versions = versions
        (currentVersion, currentVersionProblem) = ModelBundle.current(in: path, versions: versions)
    }

    /// The folder of a version. Accepts the name with or without `.xcdatamodel`.
    public func versionPath(_ version: String) throws(ModelFileError) -> String {
        let name = version.hasSuffix(".xcdatamodel") ? String(version.dropLast(".xcdatamodel".count)) : version
        guard versions.contains(name) else { throw .unknownVersion(bundle: path, requested: version, available: versions) }
        return (path as NSString).appendingPathComponent(name + ".xcdatamodel")
    }

    /// The version to read: the one asked for, else the current one.
    public func resolve(_ version: String?) throws(ModelFileError) -> String {
        if let version { return try versionPath(version) }
        guard let currentVersion else {
            throw .noCurrentVersion(bundle: path, versions: versions, reason: currentVersionProblem ?? "no current version")
        }
        return try versionPath(currentVersion)
    }

    private static func current(in path: String, versions: [String]) -> (String?, String?) {
        let marker = (path as NSString).appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: marker) else {
            if versions.count == 1 { return (versions[0], nil) }
            return (nil, "there is no .xccurrentversion and \(versions.count) versions; pass the version to read")
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let dictionary = plist as? [String: Any]
        else {
            return (nil, ".xccurrentversion is not a property list")
        }
        guard let named = dictionary["_XCCurrentVersionName"] as? String, !named.isEmpty else {
            // Xcode leaves an empty marker behind in single-version bundles.
            if versions.count == 1 { return (versions[0], nil) }
            return (nil, ".xccurrentversion has no _XCCurrentVersionName and there are \(versions.count) versions; pass the version to read")
        }
        let name = named.hasSuffix(".xcdatamodel") ? String(named.dropLast(".xcdatamodel".count)) : named
        guard versions.contains(name) else {
            return (nil, ".xccurrentversion names \(named), which is not in the bundle")
        }
        return (name, nil)
    }
}
