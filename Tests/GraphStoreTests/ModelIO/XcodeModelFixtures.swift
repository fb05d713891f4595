import Foundation

/// Small Xcode model files written by the tests.
enum XcodeModelFixtures {
    /// A `contents` document around some entity XML.
    static func contents(_ body: String, modelAttributes: String = "userDefinedModelVersionIdentifier=\"\"") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23605" systemVersion="24D60" minimumToolsVersion="Automatic" sourceLanguage="Swift" \(modelAttributes)>
        \(body)
        </model>
        """
    }

    /// Writes `Name.xcdatamodel/contents` into a folder and returns the `.xcdatamodel` path.
    @discardableResult
    static func writeVersion(_ name: String, contents: String, in folder: URL) throws -> String {
        let version = folder.appendingPathComponent(name + ".xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        return version.path
    }

    /// Writes a single-version model and returns its `.xcdatamodel` path.
    static func writeModel(_ body: String, modelAttributes: String = "userDefinedModelVersionIdentifier=\"\"") throws -> String {
        try writeVersion("Model", contents: contents(body, modelAttributes: modelAttributes), in: Fixtures.temporaryDirectory())
    }

    /// Writes `.xccurrentversion` naming a version.
    static func writeCurrentVersion(_ name: String, in bundle: URL) throws {
        let plist = ["_XCCurrentVersionName": name]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent(".xccurrentversion"))
    }
}
