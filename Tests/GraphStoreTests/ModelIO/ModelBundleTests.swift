import Foundation
import Testing
@testable import GraphStore

extension ModelIOTests {
    /// Versioned `.xcdatamodeld` bundles: listing, the current version, choosing a version.
    @Suite struct ModelBundleTests {
        /// A bundle with versions Model, Model 2 and Model 10, each with one more attribute.
        private func bundle(current: String?) throws -> URL {
            let folder = try Fixtures.temporaryDirectory().appendingPathComponent("Model.xcdatamodeld")
            for (version, attributes) in [("Model", ["a"]), ("Model 2", ["a", "b"]), ("Model 10", ["a", "b", "c"])] {
                let body = "<entity name=\"Item\">" + attributes.map { "<attribute name=\"\($0)\" optional=\"YES\" attributeType=\"String\"/>" }.joined() + "</entity>"
                try XcodeModelFixtures.writeVersion(version, contents: XcodeModelFixtures.contents(body), in: folder)
            }
            if let current { try XcodeModelFixtures.writeCurrentVersion(current, in: folder) }
            return folder
        }

        private func attributes(_ file: ModelFile) -> [String] {
            file.model.entity(named: "Item")?.attributes.map(\.name) ?? []
        }

        @Test func listsVersionsInNaturalOrderAndReadsTheCurrentOne() throws {
            let path = try bundle(current: "Model 2.xcdatamodel").path
            let bundle = try ModelBundle(path: path)
            #expect(bundle.versions == ["Model", "Model 2", "Model 10"])
            #expect(bundle.currentVersion == "Model 2")
            let file = try ModelFile(path: path)
            #expect(file.version == "Model 2")
            #expect(attributes(file) == ["a", "b"])
            #expect(file.sourcePath.hasSuffix("Model 2.xcdatamodel/contents"))
        }

        @Test func readsAnyNamedVersion() throws {
            let path = try bundle(current: "Model 2.xcdatamodel").path
            #expect(attributes(try ModelFile(path: path, version: "Model 10")) == ["a", "b", "c"])
            #expect(attributes(try ModelFile(path: path, version: "Model.xcdatamodel")) == ["a"])
            #expect { try ModelFile(path: path, version: "Model 3") } throws: { error in
                guard let error = error as? ModelFileError, case .unknownVersion(_, "Model 3", let available) = error else { return false }
                return available == ["Model", "Model 2", "Model 10"]
            }
        }

        @Test func missingCurrentVersionTargetIsATypedError() throws {
            let path = try bundle(current: "Model 7.xcdatamodel").path
            #expect { try ModelFile(path: path) } throws: { error in
                guard let error = error as? ModelFileError, case .noCurrentVersion(_, _, let reason) = error else { return false }
                return reason.contains("Model 7.xcdatamodel") && error.code == 134130
            }
            // A named version still opens.
            #expect(attributes(try ModelFile(path: path, version: "Model")) == ["a"])
        }

        @Test func severalVersionsWithoutMarkerNeedAVersion() throws {
            let path = try bundle(current: nil).path
            #expect(try ModelBundle(path: path).currentVersion == nil)
            #expect { try ModelFile(path: path) } throws: { error in
                guard let error = error as? ModelFileError, case .noCurrentVersion = error else { return false }
                return error.description.contains("Model, Model 2 and Model 10")
            }
        }

        @Test func unparseableMarkerIsReported() throws {
            let folder = try bundle(current: nil)
            try Data("garbage".utf8).write(to: folder.appendingPathComponent(".xccurrentversion"))
            let bundle = try ModelBundle(path: folder.path)
            #expect(bundle.currentVersion == nil)
            #expect(bundle.currentVersionProblem?.contains("not a property list") == true)
        }

        @Test func singleVersionFolderAndContentsFileOpenDirectly() throws {
            let folder = try bundle(current: "Model.xcdatamodel")
            let version = folder.appendingPathComponent("Model 10.xcdatamodel")
            #expect(attributes(try ModelFile(path: version.path)) == ["a", "b", "c"])
            #expect(try ModelFile(path: version.path).version == nil)
            #expect(attributes(try ModelFile(path: version.appendingPathComponent("contents").path)) == ["a", "b", "c"])
            #expect(throws: ModelFileError.self) { try ModelFile(path: version.path, version: "Model 2") }
        }
    }
}
