import Foundation

/// An Xcode data model read from disk: a versioned `.xcdatamodeld` bundle, a single
/// `.xcdatamodel` folder, or the `contents` (or legacy `elements`) file inside one.
///
/// A bundle is read at its current version (from `.xccurrentversion`) unless a version is
/// named. Modern models are the `contents` XML; Xcode 3 models are an `elements` keyed
/// archive of Xcode's own classes, which is read too. Inconsistencies that can be loaded
/// faithfully are repaired and listed in ``warnings``; anything else is a
/// ``ModelFileError`` naming the path, entity and property.
///
/// ```swift
/// let file = try ModelFile(path: "App/Model.xcdatamodeld", version: "Model 2")
/// print(file.model.entities.map(\.name), file.warnings)
/// let store = try PersistentStore(path: "App.sqlite", model: file.model, origin: .file(file.path))
/// ```
public struct ModelFile: Sendable {
    /// Which on-disk form the model was read from.
    public enum Format: String, Sendable, Hashable {
        /// The `contents` XML Xcode 4 and later write.
        case xml
        /// The `elements` keyed archive Xcode 3 wrote.
        case legacyArchive
    }

    /// The path as given.
    public let path: String
    /// The file actually read (`…/Model 2.xcdatamodel/contents`).
    public let sourcePath: String
    /// The bundle, when `path` is a versioned `.xcdatamodeld`.
    public let bundle: ModelBundle?
    /// The version read (its name without `.xcdatamodel`), when `path` is a bundle.
    public let version: String?
    /// The form the model was stored in.
    public let format: Format
    /// The model.
    public let model: ManagedObjectModel
    /// What was odd in the file and how it was handled.
    public let warnings: [ModelWarning]

    /// Reads a model file; `version` selects a version of a bundle (default: the current one).
    public init(path: String, version: String? = nil) throws(ModelFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        var versionFolder: String?
        var bundle: ModelBundle?
        if isDirectory.boolValue {
            if ModelFile.isBundle(path) {
                let opened = try ModelBundle(path: path)
                bundle = opened
                versionFolder = try opened.resolve(version)
            } else {
                try ModelFile.check(version, against: path)
                versionFolder = path
            }
        } else {
            try ModelFile.check(version, against: (path as NSString).deletingLastPathComponent)
        }
        let source = try versionFolder.map(ModelFile.modelFile(in:)) ?? path
        let data = try ModelFile.contents(of: source)
        var draft: ModelDraft
        let format: Format
        if ModelFile.isLegacyArchive(source, data) {
            format = .legacyArchive
            draft = try LegacyModelReader(path: source).read(data)
        } else {
            format = .xml
            draft = try XcodeModelReader(path: source).read(data)
        }
        do {
            self.model = try draft.build()
        } catch {
            throw .invalidModel(path: source, error)
        }
        self.path = path
        self.sourcePath = source
        self.bundle = bundle
        self.version = bundle != nil ? versionFolder.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } : nil
        self.format = format
        self.warnings = draft.warnings
    }

    /// Reads a model file and returns just the model.
    ///
    /// ```swift
    /// let model = try ModelFile.load(path: "Model.xcdatamodeld")
    /// ```
    public static func load(path: String, version: String? = nil) throws(ModelFileError) -> ManagedObjectModel {
        try ModelFile(path: path, version: version).model
    }

    // MARK: - Locating the model file

    /// A folder is a bundle when it is named `.xcdatamodeld` or holds `.xcdatamodel` folders.
    private static func isBundle(_ path: String) -> Bool {
        if path.hasSuffix(".xcdatamodeld") || path.hasSuffix(".xcdatamodeld/") { return true }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.contains { $0.hasSuffix(".xcdatamodel") } && !names.contains("contents") && !names.contains("elements")
    }

    /// A version asked of something that is not a bundle must be that model's own name.
    private static func check(_ version: String?, against folder: String) throws(ModelFileError) {
        guard let version else { return }
        let name = ((folder as NSString).lastPathComponent as NSString).deletingPathExtension
        let asked = version.hasSuffix(".xcdatamodel") ? String(version.dropLast(".xcdatamodel".count)) : version
        if asked != name { throw .unknownVersion(bundle: folder, requested: version, available: [name]) }
    }

    /// The `contents` (or legacy `elements`) file of a `.xcdatamodel` folder.
    private static func modelFile(in folder: String) throws(ModelFileError) -> String {
        for name in ["contents", "elements"] {
            let candidate = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        throw .notAModel(path: folder, reason: "the folder has neither a contents nor an elements file")
    }

    private static func contents(of file: String) throws(ModelFileError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { throw .fileNotFound(path: file) }
        guard !isDirectory.boolValue else { throw .unreadable(path: file, reason: "it is a folder, not a file") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw .unreadable(path: file, reason: ModelIOText.shortError(error))
        }
    }

    /// `elements` files are binary property lists; `contents` files are XML.
    private static func isLegacyArchive(_ file: String, _ data: Data) -> Bool {
        (file as NSString).lastPathComponent == "elements" || data.starts(with: Data("bplist".utf8))
    }
}
