import GraphStore

/// The arguments of `fetch`, `count` and `explain`: `ENTITY [select [distinct] ITEM, …]
/// [where PREDICATE] [group by KEY, …] [having PREDICATE] [sort KEY [asc|desc] [nocase], …]
/// [limit N] [offset N]` (`select` makes a dictionary fetch, see ``SelectClause``).
///
/// Clause words are found outside quotes and brackets, so a predicate may hold them in
/// strings or inside `SUBQUERY(…)`; a key named like a clause word is written `#limit`.
struct FetchCommandLine {
    var request: FetchRequest<ManagedObject>
    /// The `select` clause, when the fetch is a dictionary fetch.
    var select: SelectClause?

    static let entity = Placeholder("ENTITY", .entity)
    /// The clauses after the entity, as typed (never shown: the grammar is).
    static let clauseText = Placeholder("CLAUSES", .text)
    static let limit = Placeholder("N", .wholeNumber(from: 0))

    /// `ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]`:
    /// the clauses are read here, not by the declaration, since a predicate may hold
    /// clause words in its strings.
    static let arguments = declaration(selecting: true)

    /// `count`'s arguments: no `select`, `group by` or `having`.
    static let countArguments = declaration(selecting: false)

    private static func declaration(selecting: Bool) -> [ArgumentElement] {
        let select: [ArgumentElement] = [
            .optional([
                .literal("select"), .optional([.literal("distinct")]),
                .repeated([.value(Placeholder("ITEM", .keyPath))], separator: ","),
            ])
        ]
        let groups: [ArgumentElement] = [
            .optional([.literal("group"), .literal("by"), .repeated([.value(Placeholder("KEY", .keyPath))], separator: ",")]),
            .optional([.literal("having"), .value(Placeholder("PREDICATE", .predicate))]),
        ]
        let grammar: [ArgumentElement] =
            (selecting ? select : []) + [.optional([.literal("where"), .value(Placeholder("PREDICATE", .predicate))])]
            + (selecting ? groups : []) + [
                .optional([
                    .literal("sort"),
                    .repeated(
                        [.value(Placeholder("KEY", .keyPath)), .optional([.literal("asc", "desc")]), .optional([.literal("nocase")])],
                        separator: ","),
                ]),
                .optional([.literal("limit"), .value(limit)]),
                .optional([.literal("offset"), .value(limit)]),
            ]
        return [.value(entity), .clauses(clauseText, grammar: grammar)]
    }

    /// The clause words, in the order they may appear.
    private static let clauses = ["select", "where", "group", "having", "sort", "limit", "offset"]

    init(_ arguments: ParsedArguments, command: String, shell: Shell) throws {
        let entityWord = try arguments.word(Self.entity)
        var parts = FetchCommandLine.split(arguments.text(from: Self.clauseText) ?? "")
        // Words before the first clause, or a clause word where the entity goes, do not fit.
        if let stray = parts.removeValue(forKey: ""), !stray.isEmpty {
            throw Self.strayWords(stray, command: command, usage: arguments.usageError)
        }
        guard !Self.clauses.contains(entityWord.lowercased()) else { throw arguments.usageError }
        request = FetchRequest(entityName: try shell.mapping(entityWord).name)
        if let predicate = parts["where"] {
            request.predicate = try FetchCommandLine.predicate(predicate, command: command, shell: shell, entity: request.entityName)
        }
        if let selected = parts["select"] {
            var select = try SelectClause(selected)
            try readGroups(parts, into: &select, command: command, shell: shell)
            self.select = select
        } else if parts["group"] != nil || parts["having"] != nil {
            throw ShellError("\(command): group by and having need a select clause (fetch ENTITY select …)")
        }
        if var sort = parts["sort"].map(String.init) {
            if var select { sort = try select.replacingAggregates(in: sort[...]); self.select = select }
            request.sortKeys = try FetchCommandLine.sortKeys(sort, usageError: arguments.usageError)
        }
        if let select { request.propertiesToFetch = select.properties() }
        if let limit = parts["limit"] { request.fetchLimit = try FetchCommandLine.count(String(limit), "limit") }
        if let offset = parts["offset"] { request.fetchOffset = try FetchCommandLine.count(String(offset), "offset") }
    }

    /// The error for words after the entity that start no clause: a mistyped clause word
    /// (`wher`) says which it is close to, the rest is the usage error.
    private static func strayWords(_ stray: Substring, command: String, usage: ShellError) -> ShellError {
        let word = String(stray.prefix { !$0.isWhitespace })
        let suggestion = Suggestion.didYouMean(word, among: clauses)
        guard !suggestion.isEmpty else { return usage }
        return ShellError("\(command): \(word) is no clause\(suggestion)", token: word)
    }

    /// `group by KEY, …` and `having PREDICATE` into the request (the aggregates the
    /// predicate names join the select clause's, unshown).
    private mutating func readGroups(_ parts: [String: Substring], into select: inout SelectClause, command: String, shell: Shell) throws {
        request.resultType = .dictionary
        request.returnsDistinctResults = select.distinct
        if let group = parts["group"] {
            let words = group.split(maxSplits: 1, whereSeparator: \.isWhitespace)
            guard words.first?.lowercased() == "by", words.count == 2 else {
                throw ShellError("\(command): expected group by KEY, … (key paths separated by commas)")
            }
            request.propertiesToGroupBy = words[1].split(separator: ",").map { SelectClause.keyPath($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        if let having = parts["having"] {
            let text = try select.replacingAggregates(in: having)
            let predicate = try FetchCommandLine.predicate(text[...], command: command, shell: shell)
            guard let model = shell.store?.model else { return request.havingPredicate = predicate }
            // Strings compared with date entries (a grouped date, min or max of one) are dates in the .tz zone.
            let (entity, select) = (request.entityName, select)
            do {
                request.havingPredicate = try predicate.readingDateStrings(timeZone: shell.settings.timeZone) { path in
                    guard let aggregate = select.aggregate(named: path) else { return model.isDate(path, from: entity) }
                    guard aggregate.function == .min || aggregate.function == .max, let keyPath = aggregate.keyPath else { return false }
                    return model.isDate(keyPath.split(separator: ".").map(String.init), from: entity)
                }
            } catch {
                throw ShellError("\(command): \(error)")
            }
        }
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
    /// line is cut around it, see ``TextExcerpt``). With an entity, strings compared with its
    /// Date attributes are read as ISO 8601 dates, in the `.tz` zone when they have none.
    static func predicate(_ text: Substring, command: String, shell: Shell, entity: String? = nil) throws -> ObjectPredicate {
        do {
            let predicate = try ObjectPredicate(format: String(text)).withSubstitutionVariables(shell.parameters.bindings)
            guard let entity, let model = shell.store?.model else { return predicate }
            return try predicate.readingDateStrings(entity: entity, in: model, timeZone: shell.settings.timeZone)
        } catch let error as DateTextError {
            throw ShellError("\(command): \(error)")
        } catch let error as PredicateParseError {
            let place = TypedPlace(text, scalarOffset: error.column - 1)
            throw ShellError("\(command): bad predicate at \(place): \(error.message)\n" + place.pointer, at: place)
        }
    }

    /// `name desc, category.name nocase`.
    private static func sortKeys(_ text: String, usageError: ShellError) throws -> [SortKey] {
        try text.split(separator: ",").map { item in
            let words = item.split(whereSeparator: \.isWhitespace).map(String.init)
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
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value >= 0 else {
            throw ShellError("\(name) must be a whole number, not \(text)")
        }
        return value
    }
}

extension Shell {
    /// Compiles a request (so a bad key path fails before any output) and prints its SQL
    /// when `.sql on` is set.
    func prepareSQL(for request: FetchRequest<ManagedObject>, resultType: FetchResultType) throws {
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
