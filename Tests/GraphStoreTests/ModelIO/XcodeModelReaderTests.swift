import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

extension ModelIOTests {
    /// The Xcode `contents` reader on small models written by the tests.
    @Suite struct XcodeModelReaderTests {
        private func load(_ body: String, modelAttributes: String = "userDefinedModelVersionIdentifier=\"\"") throws -> ModelFile {
            try ModelFile(path: XcodeModelFixtures.writeModel(body, modelAttributes: modelAttributes))
        }

        @Test func booleansAreWrittenOnlyWhenYes() throws {
            let file = try load("""
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="required" attributeType="String"/>
                    <attribute name="loose" optional="YES" attributeType="String"/>
                    <attribute name="scratch" optional="YES" transient="YES"/>
                    <attribute name="flag" attributeType="Boolean" optional="NO" indexed="YES" usesScalarValueType="YES"/>
                    <relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
                </entity>
                """)
            let item = try #require(file.model.entity(named: "Item"))
            #expect(item.attribute(named: "required")?.isOptional == false)
            #expect(item.attribute(named: "loose")?.isOptional == true)
            #expect(item.attribute(named: "scratch")?.isTransient == true)
            #expect(item.attribute(named: "scratch")?.type == .undefined)
            #expect(item.attribute(named: "required")?.isTransient == false)
            #expect(item.attribute(named: "flag")?.isOptional == false)
            #expect(item.attribute(named: "flag")?.isIndexed == true)
            #expect(item.relationship(named: "owner")?.isOptional == false)
            #expect(item.relationship(named: "owner")?.isToMany == false)
            #expect(item.relationship(named: "tags")?.isToMany == true)
            #expect(item.relationship(named: "tags")?.isOrdered == false)
            #expect(!item.isAbstract)
            #expect(file.warnings.isEmpty)
        }

        @Test func defaultValuesAreParsedPerType() throws {
            let file = try load("""
                <entity name="Defaults">
                    <attribute name="i16" attributeType="Integer 16" defaultValueString="-7"/>
                    <attribute name="i32" attributeType="Integer 32" defaultValueString="NO"/>
                    <attribute name="i64" attributeType="Integer 64" defaultValueString="9000000000"/>
                    <attribute name="decimal" attributeType="Decimal" defaultValueString="1.25"/>
                    <attribute name="double" attributeType="Double" defaultValueString="0.5"/>
                    <attribute name="float" attributeType="Float" defaultValueString="2"/>
                    <attribute name="string" attributeType="String" defaultValueString="New Item"/>
                    <attribute name="yes" attributeType="Boolean" defaultValueString="YES"/>
                    <attribute name="no" attributeType="Boolean" defaultValueString="NO"/>
                    <attribute name="date" attributeType="Date" defaultDateTimeInterval="600000000"/>
                    <attribute name="uuid" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"/>
                    <attribute name="uri" attributeType="URI" defaultValueString="https://example.com/a"/>
                    <attribute name="tooBig" attributeType="Integer 16" defaultValueString="70000"/>
                    <attribute name="notANumber" attributeType="Double" defaultValueString="abc"/>
                </entity>
                """)
            let entity = try #require(file.model.entity(named: "Defaults"))
            func value(_ name: String) -> AttributeValue? { entity.attribute(named: name)?.defaultValue }
            #expect(value("i16") == .integer(-7))
            #expect(value("i32") == .integer(0))
            #expect(value("i64") == .integer(9_000_000_000))
            #expect(value("decimal") == .decimal(Decimal(string: "1.25")!))
            #expect(value("double") == .double(0.5))
            #expect(value("float") == .double(2))
            #expect(value("string") == .string("New Item"))
            #expect(value("yes") == .bool(true))
            #expect(value("no") == .bool(false))
            #expect(value("date") == .date(Date(timeIntervalSinceReferenceDate: 600_000_000)))
            #expect(value("uuid") == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
            #expect(value("uri") == .uri(URL(string: "https://example.com/a")!))
            #expect(value("tooBig") == nil)
            #expect(value("notANumber") == nil)
            #expect(Set(file.warnings.compactMap(\.property)) == ["tooBig", "notANumber"])
        }

        @Test func boundsAreLengthsForStringsAndValuesForNumbers() throws {
            let file = try load("""
                <entity name="Person">
                    <attribute name="name" attributeType="String" minValueString="3" maxValueString="10" regularExpressionString="[A-Z].*"/>
                    <attribute name="photo" optional="YES" attributeType="Binary" maxValueString="1024" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="age" attributeType="Integer 16" minValueString="0" maxValueString="150"/>
                    <attribute name="rating" attributeType="Double" minValueString="0.5" maxValueString="5"/>
                    <attribute name="born" attributeType="Date" minDateTimeInterval="407847600" minValueString="12/4/2013" maxDateTimeInterval="439470000" maxValueString="12/5/2014"/>
                </entity>
                """)
            let person = try #require(file.model.entity(named: "Person"))
            let name = try #require(person.attribute(named: "name"))
            #expect(name.minLength == 3 && name.maxLength == 10)
            #expect(name.minValue == nil && name.maxValue == nil)
            #expect(name.regularExpression == "[A-Z].*")
            #expect(person.attribute(named: "photo")?.maxLength == 1024)
            #expect(person.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
            #expect(person.attribute(named: "age")?.minValue == 0 && person.attribute(named: "age")?.maxValue == 150)
            #expect(person.attribute(named: "age")?.minLength == nil)
            #expect(person.attribute(named: "rating")?.minValue == 0.5)
            let born = try #require(person.attribute(named: "born"))
            #expect(born.minDate == Date(timeIntervalSinceReferenceDate: 407_847_600))
            #expect(born.maxDate == Date(timeIntervalSinceReferenceDate: 439_470_000))
        }

        @Test func attributeDetails() throws {
            let file = try load("""
                <entity name="Note" representedClassName=".Note" versionHashModifier="v2" elementID="OldNote" codeGenerationType="class">
                    <attribute name="body" optional="YES" attributeType="String" elementID="text" versionHashModifier="m" preserveAfterDeletion="YES" spotlightIndexingEnabled="YES">
                        <userInfo><entry key="hint" value="long"/></userInfo>
                    </attribute>
                    <attribute name="colour" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="UIColor"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="tags.@count"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
                    <userInfo><entry key="table" value="notes"/></userInfo>
                </entity>
                """)
            let note = try #require(file.model.entity(named: "Note"))
            #expect(note.className == ".Note" && note.versionHashModifier == "v2" && note.renamingIdentifier == "OldNote")
            #expect(note.userInfo == ["table": "notes"])
            let body = try #require(note.attribute(named: "body"))
            #expect(body.renamingIdentifier == "text" && body.versionHashModifier == "m")
            #expect(body.preservesValueInHistoryOnDeletion && body.userInfo == ["hint": "long"])
            let colour = try #require(note.attribute(named: "colour"))
            #expect(colour.valueTransformerName == "NSSecureUnarchiveFromData" && colour.valueClassName == "UIColor")
            #expect(note.attribute(named: "count")?.derivationExpression == "tags.@count")
        }

        @Test func relationshipsCountsRulesAndInverses() throws {
            let file = try load("""
                <entity name="Author">
                    <relationship name="books" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="Cascade" ordered="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
                    <relationship name="agent" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Agent"/>
                </entity>
                <entity name="Book">
                    <relationship name="authors" toMany="YES" deletionRule="No Action" destinationEntity="Author" inverseName="books" inverseEntity="Author" transient="YES"/>
                </entity>
                <entity name="Agent" isAbstract="YES"/>
                <entity name="LiteraryAgent" parentEntity="Agent"/>
                """)
            let model = file.model
            let books = try #require(model.entity(named: "Author")?.relationship(named: "books"))
            #expect(books.isToMany && books.isOrdered && books.minCount == 1 && books.maxCount == 5)
            #expect(books.deleteRule == .cascade && books.inverse == "authors")
            let authors = try #require(model.entity(named: "Book")?.relationship(named: "authors"))
            #expect(authors.deleteRule == .noAction && authors.isTransient && authors.maxCount == 0)
            #expect(model.entity(named: "Author")?.relationship(named: "agent")?.deleteRule == .deny)
            #expect(model.entity(named: "Agent")?.isAbstract == true)
            #expect(model.entity(named: "LiteraryAgent")?.parent == "Agent")
            #expect(file.warnings.isEmpty)
        }

        @Test func inverseThatDoesNotPointBackIsDroppedWithAWarning() throws {
            let file = try load("""
                <entity name="Shelf">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                    <relationship name="featured" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                    <relationship name="ghost" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="nothing" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                </entity>
                """)
            let shelf = try #require(file.model.entity(named: "Shelf"))
            #expect(shelf.relationship(named: "books")?.inverse == "shelf")
            #expect(shelf.relationship(named: "featured")?.inverse == nil)
            #expect(shelf.relationship(named: "ghost")?.inverse == nil)
            #expect(file.model.entity(named: "Book")?.relationship(named: "shelf")?.inverse == "books")
            #expect(file.warnings.count == 2)
            #expect(file.warnings.contains { $0.entity == "Shelf" && $0.property == "featured" && $0.message.contains("names books as its own inverse") })
            #expect(file.warnings.contains { $0.entity == "Shelf" && $0.property == "ghost" && $0.message.contains("nothing is not a relationship of Book") })
        }

        @Test func relationshipToAMissingEntityIsRejectedByName() throws {
            let path = try XcodeModelFixtures.writeModel("""
                <entity name="Book">
                    <relationship name="publisher" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Publisher"/>
                </entity>
                """)
            #expect { try ModelFile(path: path) } throws: { error in
                guard let error = error as? ModelFileError, case .invalidModel(_, .unknownDestination("Book", "publisher", "Publisher")) = error else { return false }
                return error.description.contains("Book.publisher") && error.code == 134130
            }
            let noDestination = try XcodeModelFixtures.writeModel("""
                <entity name="Book"><relationship name="publisher" optional="YES" maxCount="1" deletionRule="Nullify"/></entity>
                """)
            #expect { try ModelFile(path: noDestination) } throws: { error in
                guard let error = error as? ModelFileError, case .malformed(_, "Book", "publisher", _) = error else { return false }
                return true
            }
            let missingParent = try XcodeModelFixtures.writeModel("<entity name=\"Novel\" parentEntity=\"Book\"/>")
            #expect { try ModelFile(path: missingParent) } throws: { error in
                guard let error = error as? ModelFileError, case .invalidModel(_, .unknownParent("Novel", "Book")) = error else { return false }
                return true
            }
        }

        @Test func constraintsFetchIndexesAndCompoundIndexes() throws {
            let file = try load("""
                <entity name="Car">
                    <attribute name="maker" attributeType="String"/>
                    <attribute name="plate" attributeType="String"/>
                    <attribute name="year" attributeType="Integer 16"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint><constraint value="plate"/></uniquenessConstraint>
                        <uniquenessConstraint><constraint value="maker"/><constraint value="year"/></uniquenessConstraint>
                        <uniquenessConstraint><constraint value="colour"/></uniquenessConstraint>
                    </uniquenessConstraints>
                    <fetchIndex name="byMakerAndPlate">
                        <fetchIndexElement property="maker" type="Binary" order="ascending"/>
                        <fetchIndexElement property="plate" type="Binary" order="descending"/>
                    </fetchIndex>
                    <fetchIndex name="recent" partialIndexPredicate="year > 2000">
                        <fetchIndexElement property="year" type="Binary" order="ascending"/>
                    </fetchIndex>
                    <compoundIndexes>
                        <compoundIndex><index value="year"/><index value="maker"/></compoundIndex>
                    </compoundIndexes>
                </entity>
                """)
            let car = try #require(file.model.entity(named: "Car"))
            #expect(car.uniquenessConstraints == [["plate"], ["maker", "year"]])
            #expect(car.fetchIndexes == [
                FetchIndex("byMakerAndPlate", elements: [FetchIndex.Element("maker"), FetchIndex.Element("plate", ascending: false)]),
                FetchIndex("recent", elements: [FetchIndex.Element("year")], partialIndexPredicate: "year > 2000"),
                FetchIndex("year_maker", ["year", "maker"]),
            ])
            #expect(file.warnings.map(\.description) == [
                "Car.colour: uniqueness constraint names colour, not a property of the entity; constraint ignored"
            ])
        }

        @Test func modelLevelPartsAndConfigurations() throws {
            let file = try load("""
                <entity name="Item"><attribute name="name" optional="YES" attributeType="String"/>
                    <fetchedProperty name="similar" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Item" predicateString="name == $FETCH_SOURCE.name"/>
                        <userInfo><entry key="reason" value="same name"/></userInfo>
                    </fetchedProperty>
                </entity>
                <entity name="Log"/>
                <fetchRequest name="allNamed" entity="Item" predicateString="name != nil AND name &gt; &quot;a&quot;"/>
                <fetchRequest name="everything" entity="Item"/>
                <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Item"/></configuration>
                <configuration name="Local"><memberEntity name="Log"/><memberEntity name="Gone"/></configuration>
                <userInfo><entry key="owner" value="tests"/></userInfo>
                <elements><element name="Item" positionX="0" positionY="0" width="128" height="44"/></elements>
                """, modelAttributes: "userDefinedModelVersionIdentifier=\"3.1\"")
            let model = file.model
            #expect(model.versionIdentifiers == ["3.1"])
            #expect(model.userInfo == ["owner": "tests"])
            #expect(model.fetchRequestTemplates == [
                FetchRequestTemplate(name: "allNamed", entity: "Item", predicate: "name != nil AND name > \"a\""),
                FetchRequestTemplate(name: "everything", entity: "Item", predicate: nil),
            ])
            #expect(model.configurations == [
                ModelConfiguration(name: "Cloud", entities: ["Item"]), ModelConfiguration(name: "Local", entities: ["Log"]),
            ])
            #expect(model.entity(named: "Item")?.fetchedProperties == [
                FetchedPropertyDescription(name: "similar", entity: "Item", predicate: "name == $FETCH_SOURCE.name", userInfo: ["reason": "same name"])
            ])
            #expect(file.warnings.count == 1 && file.warnings[0].message.contains("Gone"))
            let empty = try load("<entity name=\"A\"/>", modelAttributes: "")
            #expect(empty.model.versionIdentifiers == [])
        }

        @Test func notAModel() throws {
            let folder = try Fixtures.temporaryDirectory()
            let cases: [(String, String)] = [
                ("garbage", "this is not XML <<<"),
                ("plist", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>"),
                ("html", "<html><body>hello</body></html>"),
            ]
            for (name, text) in cases {
                let path = try XcodeModelFixtures.writeVersion(name, contents: text, in: folder)
                #expect { try ModelFile(path: path) } throws: { error in
                    guard let error = error as? ModelFileError, case .notAModel = error else { return false }
                    return error.description.contains(path)
                }
            }
            let unknownType = try XcodeModelFixtures.writeModel("<entity name=\"A\"><attribute name=\"x\" attributeType=\"Integer 128\"/></entity>")
            #expect { try ModelFile(path: unknownType) } throws: { error in
                guard let error = error as? ModelFileError, case .malformed(_, "A", "x", let reason) = error else { return false }
                return reason.contains("Integer 128")
            }
            let unnamed = try XcodeModelFixtures.writeModel("<entity representedClassName=\"A\"/>")
            #expect(throws: ModelFileError.self) { try ModelFile(path: unnamed) }
            let duplicate = try XcodeModelFixtures.writeModel("<entity name=\"A\"/><entity name=\"A\"/>")
            #expect { try ModelFile(path: duplicate) } throws: { error in
                guard let error = error as? ModelFileError, case .invalidModel(_, .duplicateEntity("A")) = error else { return false }
                return true
            }
        }

        @Test func truncatedFileIsAnErrorNotASmallerModel() throws {
            let text = XcodeModelFixtures.contents("<entity name=\"A\"/>\n<entity name=\"B\"/>")
            let cut = String(text[..<text.range(of: "<entity name=\"B\"")!.lowerBound])
            let path = try XcodeModelFixtures.writeVersion("Cut", contents: cut, in: Fixtures.temporaryDirectory())
            #expect { try ModelFile(path: path) } throws: { error in
                guard let error = error as? ModelFileError, case .notAModel(_, let reason) = error else { return false }
                return reason.contains("XML")
            }
            let doctype = try XcodeModelFixtures.writeVersion(
                "Doctype", contents: "<?xml version=\"1.0\"?><!DOCTYPE model [<!ENTITY x \"y\">]><model/>", in: Fixtures.temporaryDirectory())
            #expect(throws: ModelFileError.self) { try ModelFile(path: doctype) }
        }

        /// Bytes that are not UTF-8 in a name (a bit flip in an element's tag) are an error
        /// naming the byte and line: passed on to FoundationXML, they made it trap.
        @Test func bytesThatAreNotUTF8AreAnErrorNotACrash() throws {
            let folder = try Fixtures.temporaryDirectory().appendingPathComponent("Flipped.xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mod".utf8)
            bytes += [0xF9] + Array("el/>\n".utf8)
            try Data(bytes).write(to: folder.appendingPathComponent("contents"))
            #expect { try ModelFile(path: folder.path) } throws: { error in
                guard let error = error as? ModelFileError, case .notAModel(_, let reason) = error else { return false }
                return reason == "not UTF-8 (as Xcode writes model files): byte 43 at line 2"
            }
        }

        /// A parent chain deeper than GraphStore reads is refused before the reader's repairs
        /// walk it (each repair walks an entity's ancestry: a 5,000-deep chain kept them busy
        /// for minutes). No repair has run when the error comes: nothing was warned about.
        @Test(.timeLimit(.minutes(10))) func aParentChainTooDeepIsRefusedBeforeAnyRepair() throws {
            let depth = 2_000
            var draft = ModelDraft()
            draft.entities = (1...depth).map { i in
                var entity = EntityDescription("E\(i)", parent: i == 1 ? nil : "E\(i - 1)")
                // An inverse naming nothing: a repair would drop it, with a warning.
                if i > 1 { entity.relationships.append(RelationshipDescription("r\(i)", to: "E1", inverse: "none")) }
                return entity
            }
            #expect(throws: ModelError.inheritanceTooDeep(entity: "E\(depth)", depth: depth, maximum: InheritanceCycles<String>.maximumDepth)) {
                _ = try draft.build()
            }
            #expect(draft.warnings.count == 0)  // a count: on failure, not thousands of warnings
        }

        @Test func missingAndUnreadablePaths() throws {
            let missing = "/nonexistent/Model.xcdatamodeld"
            #expect { try ModelFile(path: missing) } throws: { error in
                guard let error = error as? ModelFileError, case .fileNotFound(missing) = error else { return false }
                return error.code == 134130 && error.description.contains(missing)
            }
            let empty = try Fixtures.temporaryDirectory().appendingPathComponent("Empty.xcdatamodel")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            #expect { try ModelFile(path: empty.path) } throws: { error in
                guard let error = error as? ModelFileError, case .notAModel(_, let reason) = error else { return false }
                return reason.contains("neither a contents nor an elements file")
            }
        }

        @Test func legacyElementsThatCannotBeReadNameTheFormat() throws {
            let folder = try Fixtures.temporaryDirectory().appendingPathComponent("Old.xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("bplist00 but not really".utf8).write(to: folder.appendingPathComponent("elements"))
            #expect { try ModelFile(path: folder.path) } throws: { error in
                guard let error = error as? ModelFileError, case .legacyFormat = error else { return false }
                // The library says what to do in its own terms; the REPL adds its flag (see
                // GraphStoreShellTests' LibraryHintTests).
                return error.description.contains("legacy Xcode 3 model (elements archive); open it in Xcode to convert it (")
                    && !error.description.contains("--model")
            }
        }
    }
}
