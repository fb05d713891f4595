import Foundation

/// A mapping model a migration may use: where it is, what it maps between (its snapshots
/// compared with the bundle's versions), or why it cannot be used.
///
/// Core Data looks for a mapping model whose source and destination are the store's model
/// and the target before it infers one, among every compiled mapping model of the app's
/// bundle. In a project's source tree those are the `.xcmappingmodel` bundles around the
/// model bundle: ``around(bundle:versions:)`` finds them as Xcode would compile them into
/// the app (the project's folder tree), and ``read(_:versions:)`` reads named ones.
///
/// ```swift
/// let candidates = MappingModelCandidate.around(bundle: versions.path, versions: versions)
/// candidates.first?.steps    // ("Model 2", "Model 3")
/// ```
public struct MappingModelCandidate: Sendable {
    /// The mapping model's path.
    public var path: String
    /// The mapping model, when it could be read.
    public var mappingModel: MappingModel?
    /// How its snapshots fit the bundle's versions, when it could be read.
    public var fit: MappingModelFit?
    /// Why it cannot be read, when it cannot.
    public var problem: String?

    /// The file's name (`Model2toModel3.xcmappingmodel`).
    public var name: String { (path as NSString).lastPathComponent }

    /// The versions it maps from and to, when both of its snapshots are versions of the bundle.
    public var versions: (source: String, destination: String)? {
        guard let fit, fit.fits, let source = fit.source?.version, let destination = fit.destination?.version else { return nil }
        return (source, destination)
    }

    init(path: String, mappingModel: MappingModel? = nil, fit: MappingModelFit? = nil, problem: String? = nil) {
        self.path = path
        self.mappingModel = mappingModel
        self.fit = fit
        self.problem = problem
    }

    /// A mapping model built in Swift (or read elsewhere), fitted to `versions` by its
    /// models; `path` names it in plans and errors.
    public init(path: String, mappingModel: MappingModel, versions: ModelVersions) {
        self.init(path: path, mappingModel: mappingModel, fit: MappingModelFit(mapping: mappingModel, versions: versions))
    }

    /// Reads the mapping model at `path` and fits it to `versions`.
    public static func read(_ path: String, versions: ModelVersions) throws(MappingModelError) -> MappingModelCandidate {
        let file = try MappingModelFile(path: path)
        return MappingModelCandidate(path: path, mappingModel: file.mappingModel, fit: MappingModelFit(mapping: file.mappingModel, versions: versions))
    }

    /// The mapping models of the project around a model bundle: the folder tree from the
    /// nearest folder above the bundle that holds an Xcode project, a Swift package or a
    /// Git repository (at most three folders up; else the folder above the bundle's, or the
    /// bundle's own folder when the one above is shared, like the temporary folder), in
    /// the order of their paths. Only those made for this bundle are kept: a snapshot is
    /// one of its versions, or the file names the bundle as where its model was (a model
    /// edited since). One that cannot be read is kept with its problem when its text names
    /// the bundle.
    public static func around(bundle: String, versions: ModelVersions) -> [MappingModelCandidate] {
        let bundleName = ((bundle as NSString).standardizingPath as NSString).lastPathComponent
        return paths(around: bundle).compactMap { path in
            do {
                let candidate = try read(path, versions: versions)
                let model = candidate.mappingModel
                let names = [model?.sourceModelPath, model?.destinationModelPath].compactMap { $0 }.flatMap { $0.split(separator: "/").map(String.init) }
                let related = candidate.fit?.source?.fits == true || candidate.fit?.destination?.fits == true || names.contains(bundleName)
                return related ? candidate : nil
            } catch {
                let file = MappingModelFile.isMappingModel(path) ? (path as NSString).appendingPathComponent("xcmapping.xml") : path
                let text = (try? Data(contentsOf: URL(fileURLWithPath: file))).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return text.contains(bundleName) ? MappingModelCandidate(path: path, problem: "\(error)") : nil
            }
        }
    }

    /// The `.xcmappingmodel` paths of the project around `bundle`.
    static func paths(around bundle: String) -> [String] {
        let start = ((bundle as NSString).standardizingPath as NSString).deletingLastPathComponent
        let above = (start as NSString).deletingLastPathComponent
        // Without a project root, the folder above the bundle's, unless that is a folder
        // shared by everything (the file system's root, the temporary folder, home).
        var root = isShared(above) ? start : above
        var folder = start
        for _ in 0...3 {
            if isProjectRoot(folder) {
                root = folder
                break
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder { break }
            folder = parent
        }
        return search(root)
    }

    private static func isShared(_ folder: String) -> Bool {
        let shared = ["/", "/tmp", "/private/tmp", "/var/tmp", "/home", "/Users", NSHomeDirectory(), NSTemporaryDirectory()]
        return shared.map { ($0 as NSString).standardizingPath }.contains((folder as NSString).standardizingPath)
    }

    private static func isProjectRoot(_ folder: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.contains { $0.hasSuffix(".xcodeproj") || $0 == "Package.swift" || $0 == ".git" }
    }

    /// Every `.xcmappingmodel` under `root`, skipping hidden folders and build products, and
    /// stopping after 20,000 entries (a project's sources, not a disk).
    private static func search(_ root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        var seen = 0
        while let entry = walker.nextObject() as? String, seen < 20_000 {
            seen += 1
            let name = (entry as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "DerivedData" || name == "Pods" || name == "build" {
                walker.skipDescendants()
            } else if name.hasSuffix(".xcmappingmodel") {
                found.append((root as NSString).appendingPathComponent(entry))
                walker.skipDescendants()
            } else if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcassets") {
                walker.skipDescendants()
            }
        }
        return found.sorted()
    }
}
