import Foundation
import Testing
import TestScratch

/// `docs/from-core-data.md` stays true: every GraphStore name its tables give as a
/// counterpart (a code span in the GraphStore column) is in the built library's public API,
/// read from its symbol graph, with the argument labels the span writes; so renaming a
/// call without its row fails here. And every Core Data type the library declares a porting
/// name for (`Sources/GraphStore/Porting`) has a row.
@Suite struct FromCoreDataDocumentTests {
    static let document = GraphStoreBinary.packageRoot.appendingPathComponent("docs/from-core-data.md").path

    /// Names the rows use that are not the library's: the example model's classes and
    /// properties (BookStore, SurfJournal), the package's build-tool plugin, and Swift's
    /// and Foundation's own.
    static let notTheLibrarys: Set<String> = [
        "Book", "BookCategory", "Page", "JournalEntry", "title", "price", "category", "books", "pages", "addToBooks", "removeFromBooks",
        "GraphStoreCodegen", "NSCocoaErrorDomain", "MyPolicy",
        "String", "Int", "Int16", "Int64", "Bool", "Double", "Float", "Date", "Data", "URL", "UUID", "Decimal", "Set", "Array",
        "Notification", "NotificationCenter", "SortDescriptor", "Predicate", "Sendable", "IndexPath", "Error", "NSError",
        "AsyncStream", "Task", "MainActor", "Duration",
    ]
    /// The types of the variables the rows' code uses, so that `context.save()` is checked
    /// as a member of ``ManagedObjectContext``.
    static let variableTypes: [String: [String]] = [
        "context": ["ManagedObjectContext"], "child": ["ManagedObjectContext"], "container": ["PersistentContainer"],
        "store": ["PersistentStore"], "model": ["ManagedObjectModel"], "entity": ["EntityDescription"],
        "attribute": ["AttributeDescription"], "relationship": ["RelationshipDescription"],
        "request": ["FetchRequest", "BatchDeleteRequest", "BatchUpdateRequest", "BatchInsertRequest"],
        "controller": ["FetchedResultsController"], "conflict": ["MergeConflict"], "result": ["BatchResult"],
        "object": ["ManagedObject", "EntityObject"], "objectID": ["ObjectID"], "id": ["ObjectID"],
        "manager": ["MigrationManager", "MappingMigrationManager"], "mappingModel": ["MappingModel"],
    ]

    /// Swift's keywords, and the variables the rows' code uses (`context.save()`,
    /// `{ context in … }`).
    static let keywords: Set<String> = [
        "try", "await", "let", "var", "in", "true", "false", "nil", "self", "Self", "some", "any", "as", "is", "get", "set",
        "for", "return", "final", "class", "struct", "extension", "func", "override", "public",
        "context", "container", "store", "request", "object", "id", "ids", "note", "child", "result", "controller", "manager",
        "model", "entity", "attribute", "relationship", "conflict", "undoManager", "mappingModel",
    ]

    /// The GraphStore column's cells of every table row.
    static func graphStoreCells(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("|"), !line.hasPrefix("|---") else { return nil }
            let cells = cellsOf(String(line))
            guard cells.count >= 3, cells[0] != "Core Data" else { return nil }
            return cells[1]
        }
    }

    /// A row's cells, split at the bars outside code spans.
    static func cellsOf(_ line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var inCode = false
        for character in line.dropFirst() {
            if character == "`" { inCode.toggle() }
            if character == "|", !inCode {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        return cells
    }

    /// The code spans of a cell.
    static func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func everyCounterpartTheTablesNameIsPublicAPI() throws {
        let (symbols, output) = try PublicSymbols.library.get()
        try #require(symbols.isType("ManagedObjectContext"), "no symbol graph: \(output)")
        let text = try String(contentsOfFile: Self.document, encoding: .utf8)
        let spans = Self.graphStoreCells(text).flatMap(Self.codeSpans)
        #expect(spans.count > 100, "the tables' GraphStore column has \(spans.count) code spans")
        var checker = CounterpartChecker(symbols: symbols, notTheLibrarys: Self.notTheLibrarys, variables: Self.keywords, variableTypes: Self.variableTypes)
        for span in spans where !span.hasPrefix("graphstore ") && !span.contains(" --") {   // shell commands are the manual's
            checker.check(span)
        }
        #expect(checker.missing.isEmpty, "not in GraphStore's public API: \(checker.missing.joined(separator: "; "))")
    }

    /// The checker itself refuses names and labels that are not there.
    @Test func aRenamedCallFailsTheCheck() throws {
        let (symbols, _) = try PublicSymbols.library.get()
        var checker = CounterpartChecker(symbols: symbols, notTheLibrarys: Self.notTheLibrarys, variables: Self.keywords, variableTypes: Self.variableTypes)
        for span in ["context.object(for:)", "PersistentContainer(path:model:)", "context.mergePolicy = .mergeByPropertyObjectTrump", "FetchIndex.Element"] {
            checker.check(span)
        }
        #expect(checker.missing.isEmpty, "\(checker.missing)")
        for span in ["context.object(with:)", "PersistentContainer(name:)", "context.mergePolicy = .mergeByPropertyOverwrite", "FetchIndex.Part", "NSManagedObjectContext", "context.fetch(request, into: store)"] {
            var one = CounterpartChecker(symbols: symbols, notTheLibrarys: Self.notTheLibrarys, variables: Self.keywords, variableTypes: Self.variableTypes)
            one.check(span)
            #expect(!one.missing.isEmpty, "\(span) passed")
        }
    }

    @Test func everyPortingNameHasARow() throws {
        let text = try String(contentsOfFile: Self.document, encoding: .utf8)
        let coreDataColumn = text.split(separator: "\n").filter { $0.hasPrefix("|") }.compactMap { Self.cellsOf(String($0)).first }.joined(separator: "\n")
        let folder = GraphStoreBinary.packageRoot.appendingPathComponent("Sources/GraphStore/Porting").path
        var declared: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for match in source.matches(of: /public (?:typealias|enum) (NS[A-Za-z]+)/) { declared.append(String(match.1)) }
        }
        #expect(declared.count > 40)
        let missing = declared.filter { !coreDataColumn.contains($0) }
        #expect(missing.isEmpty, "Core Data names GraphStore declares for ports but docs/from-core-data.md has no row for: \(missing)")
    }
}

/// Checks the names of one code span against the public symbols: a type must be a type;
/// `Type.member` a member of that type; `x.member`, `.member` and a bare `member` a member
/// of some type; `name(a:b:)` a declaration with exactly those labels; a call
/// `name(a: 1, b)` one whose labels include the call's, in order (the others defaulted);
/// `Type(…)` an init of the type. What is not checked: argument labels and type
/// annotations (`name:`), receivers (`context.`) and values inside a call's parentheses.
struct CounterpartChecker {
    var symbols: PublicSymbols
    /// Names that are not the library's wherever they are (the example model's, Foundation's).
    var notTheLibrarys: Set<String>
    /// Keywords and variables, not checked where they stand alone (a member of that name is).
    var variables: Set<String>
    /// The types a variable may be, whose members follow it.
    var variableTypes: [String: [String]]
    var missing: [String] = []

    mutating func check(_ span: String) {
        let code = Array(Self.withoutStrings(span))
        var index = 0
        var depth = 0   // of parentheses and brackets: what is inside them is a value
        while index < code.count {
            if "([".contains(code[index]) { depth += 1 }
            if ")]".contains(code[index]) { depth -= 1 }
            guard code[index].isLetter || code[index] == "_" else { index += 1; continue }
            let start = index
            while index < code.count, code[index].isLetter || code[index].isNumber || code[index] == "_" { index += 1 }
            let name = String(code[start..<index])
            let previous = start > 0 ? code[start - 1] : " "
            let following = index < code.count ? code[index] : " "
            let isType = name.first?.isUppercase == true
            if previous == "#" || previous == "$" || notTheLibrarys.contains(name) || (previous != "." && variables.contains(name)) { continue }
            if !isType, following == ":", index + 1 >= code.count || code[index + 1] != ":" { continue }   // a label
            var next = index
            if next < code.count, code[next] == "<" { next = Self.closing(of: next, in: code) + 1 }   // generic arguments
            let labels = next < code.count && code[next] == "(" ? Self.labels(inParenthesesAt: next, in: code) : nil
            if previous == "." {
                let receiver = Self.identifier(endingAt: start - 2, in: code)
                if let receiver, notTheLibrarys.contains(receiver), receiver.first?.isUppercase == true { continue }
                let parents = receiver.flatMap { symbols.isType($0) ? [$0] : variableTypes[$0] }
                if isType, symbols.isType(name) {
                    if let labels { require(member: "init", in: [name], labels: labels, span: span) }   // a nested type's init
                } else {
                    require(member: name, in: parents, labels: labels, span: span)
                }
            } else if isType {
                guard symbols.isType(name) else { missing.append("\(name) in `\(span)`"); continue }
                if let labels { require(member: "init", in: [name], labels: labels, span: span) }
            } else if following == "." || (depth > 0 && labels == nil) {
                continue   // a receiver, or a value passed to a call
            } else {
                require(member: name, in: nil, labels: labels, span: span)   // a bare member, or one called on self
            }
        }
    }

    private mutating func require(member name: String, in parents: [String]?, labels: Labels?, span: String) {
        let titles = (parents.map { $0.flatMap { symbols.names(in: $0) } } ?? symbols.names(in: nil)).filter { $0 == name || $0.hasPrefix(name + "(") }
        let found: Bool
        switch labels {
        case nil: found = !titles.isEmpty
        case .signature(let exact): found = titles.contains("\(name)(\(exact.map { $0 + ":" }.joined()))")
        case .call(let used): found = titles.contains { Self.accepts(declared: Self.declaredLabels($0), used: used) }
        }
        if !found { missing.append("\(parents.map { $0.joined(separator: "|") + "." } ?? "")\(name)\(labels.map { "\($0)" } ?? "") in `\(span)`") }
    }

    enum Labels: CustomStringConvertible {
        /// `name(a:b:)`: exactly these labels.
        case signature([String])
        /// `name(a: 1, 2)`: the labels used, `_` for none.
        case call([String])

        var description: String {
            switch self {
            case .signature(let labels): "(\(labels.map { $0 + ":" }.joined()))"
            case .call(let labels): "(\(labels.map { $0 + ":" }.joined(separator: " ")))"
            }
        }
    }

    /// The labels of a declaration's title (`init(path:model:)` → `["path", "model"]`).
    static func declaredLabels(_ title: String) -> [String]? {
        guard let open = title.firstIndex(of: "("), title.hasSuffix(")") else { return nil }
        return title[title.index(after: open)..<title.index(before: title.endIndex)].split(separator: ":").map(String.init)
    }

    /// Whether a call with `used` labels can call a declaration with `declared` ones: each
    /// used label in order, the declaration's others defaulted, several unlabeled arguments
    /// in a row for one variadic parameter.
    static func accepts(declared: [String]?, used: [String]) -> Bool {
        guard let declared else { return false }
        var position = 0
        var previous: String?
        for label in used {
            if label == "_", previous == "_" { continue }
            while position < declared.count, declared[position] != label { position += 1 }
            guard position < declared.count else { return false }
            position += 1
            previous = label
        }
        return true
    }

    /// The span with string literals emptied, so that their words are not read as names.
    static func withoutStrings(_ span: String) -> String {
        var result = ""
        var inString = false
        for character in span {
            if character == "\"" { inString.toggle(); result.append(character); continue }
            if !inString { result.append(character) }
        }
        return result
    }

    static func identifier(endingAt end: Int, in code: [Character]) -> String? {
        guard end >= 0, code[end].isLetter || code[end].isNumber || code[end] == "_" else { return nil }
        var start = end
        while start > 0, code[start - 1].isLetter || code[start - 1].isNumber || code[start - 1] == "_" { start -= 1 }
        return String(code[start...end])
    }

    /// The index of the bracket closing the one at `open` (or the last index).
    static func closing(of open: Int, in code: [Character]) -> Int {
        let pairs: [Character: Character] = ["(": ")", "<": ">", "[": "]", "{": "}"]
        guard let closer = pairs[code[open]] else { return open }
        var depth = 0
        for index in open..<code.count {
            if code[index] == code[open] { depth += 1 }
            if code[index] == closer { depth -= 1; if depth == 0 { return index } }
        }
        return code.count - 1
    }

    /// The labels in the parentheses at `open`: a signature when every part is `label:`,
    /// otherwise a call's labels.
    static func labels(inParenthesesAt open: Int, in code: [Character]) -> Labels {
        let close = closing(of: open, in: code)
        let inside = String(code[(open + 1)..<max(open + 1, close)])
        if !inside.isEmpty, inside.wholeMatch(of: /(?:[A-Za-z_][A-Za-z0-9_]*:)+/) != nil {
            return .signature(inside.split(separator: ":").map(String.init))
        }
        var arguments: [String] = []
        var depth = 0
        var current = ""
        for character in inside {
            if "([{".contains(character) { depth += 1 }
            if ")]}".contains(character) { depth -= 1 }
            if character == ",", depth == 0 { arguments.append(current); current = ""; continue }
            current.append(character)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { arguments.append(current) }
        return .call(arguments.map { argument in
            let trimmed = argument.trimmingCharacters(in: .whitespaces)
            if let match = trimmed.prefixMatch(of: /([A-Za-z_][A-Za-z0-9_]*):(?!:)/) { return String(match.1) }
            return "_"
        })
    }
}
