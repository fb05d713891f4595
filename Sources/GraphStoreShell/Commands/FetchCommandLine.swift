import GraphStore

/// The arguments of `fetch`, `count` and `explain`:
/// `ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]`.
///
/// Clause words are found outside quotes and brackets, so a predicate may hold them in
/// strings or inside `SUBQUERY(…)`; a key named like a clause word is written `#limit`.
struct FetchCommandLine {
    var request: FetchRequest

    static let entity = Placeholder("ENTITY", .entity)
    /// The clauses after the entity, as typed (never shown: the grammar is).
    static let clauseText = Placeholder("CLAUSES", .text)
    static let limit = Placeholder("N", .wholeNumber(from: 0))

    /// `ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]`:
    /// the clauses are read here, not by the declaration, since a predicate may hold
    /// clause words in its strings.
    static let arguments: [ArgumentElement] = [
        .value(entity),
        .clauses(
            clauseText,
            grammar: [
                .optional([.literal("where"), .value(Placeholder("PREDICATE", .predicate))]),
                .optional([
                    .literal("sort"),
                    .repeated(
                        [.value(Placeholder("KEY", .keyPath)), .optional([.literal("asc", "desc")]), .optional([.literal("nocase")])],
                        separator: ","),
                ]),
                .optional([.literal("limit"), .value(limit)]),
                .optional([.literal("offset"), .value(limit)]),
            ]),
    ]

    /// The clause words, in the order they may appear.
    private static let clauses = ["where", "sort", "limit", "offset"]

    init(_ arguments: ParsedArguments, command: String, shell: Shell) throws {
        let entityWord = try arguments.word(Self.entity)
        var parts = FetchCommandLine.split(arguments.text(from: Self.clauseText) ?? "")
        // Words before the first clause, or a clause word where the entity goes, do not fit.
        guard parts.removeValue(forKey: "")?.isEmpty != false, !Self.clauses.contains(entityWord.lowercased()) else {
            throw arguments.usageError
        }
        request = FetchRequest(entityName: try shell.mapping(entityWord).name)
        if let predicate = parts["where"] {
            request.predicate = try FetchCommandLine.predicate(predicate, command: command, shell: shell)
        }
        if let sort = parts["sort"] { request.sortKeys = try FetchCommandLine.sortKeys(String(sort), usageError: arguments.usageError) }
        if let limit = parts["limit"] { request.fetchLimit = try FetchCommandLine.count(String(limit), "limit") }
        if let offset = parts["offset"] { request.fetchOffset = try FetchCommandLine.count(String(offset), "offset") }
    }

    /// The text of each clause by its word ("" for the text before the first clause), as
    /// slices of the typed line. Scanned by Unicode scalar, as the predicate lexer reads it
    /// (see ``QuoteState``).
    private static func split(_ text: Substring) -> [String: Substring] {
        var parts: [String: Substring] = [:]
        var clause = ""
        var clauseStart = text.startIndex
        var word = ""
        var wordStart = text.startIndex
        var depth = 0
        var quotes = QuoteState()
        func endWord(at end: String.Index) {
            let name = word.lowercased()
            if depth == 0, !quotes.isInsideQuotes, clauses.contains(name), parts[name] == nil, clause != name {
                parts[clause] = text[clauseStart..<wordStart].trimmedSlice()
                clause = name
                clauseStart = end
            }
            word = ""
        }
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if quotes.advance(scalar) {
                if "({[".unicodeScalars.contains(scalar) {
                    depth += 1
                } else if ")}]".unicodeScalars.contains(scalar) {
                    depth -= 1
                }
                if scalar.properties.isWhitespace {
                    endWord(at: index)
                } else {
                    if word.isEmpty { wordStart = index }
                    word.unicodeScalars.append(scalar)
                }
            } else if word.isEmpty {
                // A quote starts a word that is not a clause word.
                wordStart = index
                word = "\""
            } else {
                word.unicodeScalars.append(scalar)
            }
            index = scalars.index(after: index)
        }
        endWord(at: text.endIndex)
        parts[clause] = text[clauseStart...].trimmedSlice()
        return parts
    }

    /// The predicate of a `where` clause, with `$NAME` taking the value `.parameter set NAME
    /// VALUE` bound. A parse error names the column, counted from the start of the line the
    /// predicate was typed on, and shows that line with a caret under the fault (a long
    /// line is cut around it, see ``TextExcerpt``).
    static func predicate(_ text: Substring, command: String, shell: Shell) throws -> ObjectPredicate {
        do {
            return try ObjectPredicate(format: String(text)).withSubstitutionVariables(shell.parameters.bindings)
        } catch let error as PredicateParseError {
            let place = TypedPlace(text, scalarOffset: error.column - 1)
            let excerpt = TextExcerpt(place.line, around: place.column - 1)
            throw ShellError("\(command): bad predicate at \(place): \(error.message)\n" + excerpt.pointer)
        }
    }

    /// `name desc, category.name nocase`.
    private static func sortKeys(_ text: String, usageError: ShellError) throws -> [SortKey] {
        try text.split(separator: ",").map { item in
            let words = item.split(separator: " ").map(String.init)
            guard var key = words.first.map({ SortKey($0) }) else { throw usageError }
            for word in words.dropFirst() {
                switch word.lowercased() {
                case "asc": key.ascending = true
                case "desc": key.ascending = false
                case "nocase": key.caseInsensitive = true
                default: throw ShellError("sort: expected asc, desc or nocase after \(key.keyPath), not \(word)")
                }
            }
            return key
        }
    }

    private static func count(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ShellError("\(name) must be a whole number, not \(text)")
        }
        return value
    }
}

extension Shell {
    /// Compiles a request (so a bad key path fails before any output) and prints its SQL
    /// when `.sql on` is set.
    func prepareSQL(for request: FetchRequest, resultType: FetchResultType) throws {
        let generated = try requireStore().sql(for: request, resultType: resultType)
        if settings.echoSQL { output(SQLText.lines(generated)) }
    }
}

/// The `-- sql:` lines shown by `.sql on` and `explain`.
enum SQLText {
    static func lines(_ generated: GeneratedSQL) -> String {
        var text = "-- sql: \(generated.sql)\n"
        if !generated.bindings.isEmpty { text += "-- bindings: \(generated.bindingsDescription)\n" }
        if let inMemory = generated.inMemoryPredicate { text += "-- in memory: \(inMemory.predicateFormat)\n" }
        return text
    }
}
