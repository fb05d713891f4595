import Foundation

/// Seed files: CSV (a header row of property names, then one object a row) and JSON (an
/// array of objects; a to-one as its destination's key or a nested object holding it, a
/// to-many as an array of them). The format follows the file's extension (`.json`, else CSV).
///
/// In CSV an empty cell is no value (nil) and a quoted empty cell (`""`) is the empty string,
/// as PostgreSQL's `COPY … CSV` reads them; a to-many cell lists keys separated by `|`.
///
/// ```swift
/// let records = try SeedFile.read("books.csv", keys: keys, entity: "Book")
/// try SeedFile.write(records, columns: ["title", "price"], to: "books.json")
/// ```
public enum SeedFile {
    /// Whether a path names a JSON file.
    public static func isJSON(_ path: String) -> Bool { path.lowercased().hasSuffix(".json") }

    /// The records of a file.
    public static func read(_ path: String, keys: NaturalKeys, entity: String, model: ManagedObjectModel) throws -> [SeedRecord] {
        guard let data = FileManager.default.contents(atPath: path) else { throw SeedError("\(path): cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw SeedError("\(path): not UTF-8 text") }
        return isJSON(path) ? try readJSON(text, file: path, keys: keys, entity: entity, model: model) : try readCSV(text, file: path, entity: entity, model: model)
    }

    // MARK: - CSV

    static func readCSV(_ text: String, file: String, entity: String, model: ManagedObjectModel) throws -> [SeedRecord] {
        let rows = try CSVRows.parse(text, file: file)
        guard let header = rows.first else { return [] }
        var firstColumn: [String: Int] = [:]
        for (number, name) in header.cells.enumerated() {
            if let earlier = firstColumn[name] {
                throw SeedError("\(file):\(header.line): the header names \(name) twice (columns \(earlier + 1) and \(number + 1)); each column must name a different property")
            }
            firstColumn[name] = number
        }
        var records: [SeedRecord] = []
        for row in rows.dropFirst() {
            if row.cells == [""] && row.quotedEmpty.isEmpty { continue }
            guard row.cells.count == header.cells.count else {
                throw SeedError("\(file):\(row.line): \(row.cells.count) cells, but the header names \(header.cells.count)")
            }
            let fields = zip(header.cells, row.cells).enumerated().map { column, pair -> (name: String, value: SeedRecord.Field) in
                let (name, cell) = pair
                let relationship = model.relationship(name, of: entity)
                if cell.isEmpty { return (name, row.quotedEmpty.contains(column) && relationship == nil ? .text("") : .null) }
                if relationship?.isToMany == true {
                    return (name, .keys(cell.split(separator: "|", omittingEmptySubsequences: false).map(String.init)))
                }
                return (name, .text(cell))
            }
            records.append(SeedRecord(line: row.line, fields: fields))
        }
        return records
    }

    // MARK: - JSON

    static func readJSON(_ text: String, file: String, keys: NaturalKeys, entity: String, model: ManagedObjectModel) throws -> [SeedRecord] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            throw SeedError("\(file)\(JSONErrorPlace.of(error, in: text).map { ":\($0.line):\($0.column)" } ?? ""): not JSON (\(JSONErrorPlace.reason(error)))")
        }
        guard let array = parsed as? [Any] else { throw SeedError("\(file): expected an array of objects") }
        let lines = elementLines(text)
        var records: [SeedRecord] = []
        for (i, element) in array.enumerated() {
            let line = i < lines.count ? lines[i] : 0
            guard let object = element as? [String: Any] else { throw SeedError("\(file):\(line): element \(i + 1) is not an object") }
            var fields: [(name: String, value: SeedRecord.Field)] = []
            for name in object.keys.sorted() {
                let value = object[name] ?? NSNull()
                let destination = model.relationship(name, of: entity)?.destination
                func key(_ value: Any) throws -> String {
                    if let nested = value as? [String: Any] {
                        guard let destination, let parts = keys.parts(of: destination), parts.allSatisfy({ nested[$0] != nil }),
                            let text = NaturalKeyIndex.keyText(parts: parts.map { nested[$0].flatMap { $0 is NSNull ? nil : scalar($0) } })
                        else {
                            throw SeedError("\(file):\(line): \(entity).\(name): a nested object must hold its natural key (--key)")
                        }
                        return text
                    }
                    return scalar(value)
                }
                if value is NSNull {
                    fields.append((name, .null))
                } else if let list = value as? [Any] {
                    fields.append((name, .keys(try list.map(key))))
                } else {
                    fields.append((name, .text(try key(value))))
                }
            }
            records.append(SeedRecord(line: line, fields: fields))
        }
        return records
    }

    private static func scalar(_ value: Any) -> String {
        if let string = value as? String { return string }
        // true and false read as 1 and 0 where the platform gives numbers: a Boolean
        // attribute takes both spellings.
        if let number = value as? NSNumber { return number.stringValue }
        return "\(value)"
    }

    /// The line each object or array in the top-level JSON array starts on (for messages).
    private static func elementLines(_ text: String) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        for c in text.unicodeScalars {
            if c == "\n" { line += 1 }
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "{", "[":
                if depth == 1 { lines.append(line) }
                depth += 1
            case "}", "]": depth -= 1
            default: continue
            }
        }
        return lines
    }

    // MARK: - Writing

    /// Writes records as CSV or JSON (by the path's extension); `columns` orders CSV's header.
    /// Given the entity and its model, JSON holds numbers and Booleans as JSON numbers and
    /// `true`/`false`, not strings.
    public static func write(_ records: [SeedRecord], columns: [String], to path: String, entity: String? = nil, model: ManagedObjectModel? = nil) throws {
        try checkWritable(path, entity: entity)
        var text = ""
        if isJSON(path) {
            var bare = Set<String>()
            if let entity, let model {
                for attribute in model.attributes(of: entity) {
                    switch attribute.type {
                    case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: bare.insert(attribute.name)
                    default: continue
                    }
                }
            }
            text = "[\n" + records.map { record in
                "  {" + record.fields.map { field -> String in
                    if bare.contains(field.name), case .text(let literal) = field.value, isJSONLiteral(literal) {
                        return "\(jsonString(field.name)): \(literal)"
                    }
                    return "\(jsonString(field.name)): \(json(field.value))"
                }.joined(separator: ", ") + "}"
            }.joined(separator: ",\n") + "\n]\n"
        } else {
            text = columns.map(csvCell).joined(separator: ",") + "\n"
            for record in records {
                let byName = Dictionary(record.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
                text += columns.map { name -> String in
                    switch byName[name] ?? .null {
                    case .null: return ""
                    case .text(let t): return t.isEmpty ? "\"\"" : csvCell(t)
                    case .keys(let list): return csvCell(list.joined(separator: "|"))
                    }
                }.joined(separator: ",") + "\n"
            }
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw SeedError("\(path): cannot be written (\(error.localizedDescription))")
        }
    }

    /// Refuses a path that names a folder, or lies in a folder that is not there or cannot
    /// be written, with a sentence saying so (Foundation's own error names only a code).
    private static func checkWritable(_ path: String, entity: String?) throws {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            let example = (path as NSString).appendingPathComponent("\(entity ?? "objects").csv")
            throw SeedError("\(path): is a folder; give the name of a file to write, such as \(example)")
        }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SeedError("\(path): cannot be written: there is no folder \(folder)")
        }
        guard files.isWritableFile(atPath: folder) else { throw SeedError("\(path): cannot be written: the folder \(folder) is not writable") }
    }

    /// Whether text is a JSON number, `true` or `false` as it stands (not NaN or infinity).
    private static func isJSONLiteral(_ text: String) -> Bool {
        if text == "true" || text == "false" { return true }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) is NSNumber
    }

    private static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func json(_ field: SeedRecord.Field) -> String {
        switch field {
        case .null: "null"
        case .text(let t): jsonString(t)
        case .keys(let list): "[" + list.map(jsonString).joined(separator: ", ") + "]"
        }
    }

    private static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}

/// CSV text as rows of cells (RFC 4180: quoted cells may hold commas, quotes doubled and
/// line breaks), each with the line it starts on. Lines end at LF, CRLF or a lone CR.
enum CSVRows {
    struct Row {
        var line: Int
        var cells: [String]
        /// The columns whose cell was written `""`: an empty string, where an empty cell
        /// written as nothing is no value.
        var quotedEmpty: Set<Int> = []
    }

    static func parse(_ text: String, file: String) throws -> [Row] {
        var rows: [Row] = []
        var cells: [String] = []
        var quotedEmpty: Set<Int> = []
        var cell = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var afterQuote = false
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            i += 1
            if quoted {
                if c == "\"" {
                    if i < scalars.count, scalars[i] == "\"" {
                        cell.unicodeScalars.append("\"")
                        i += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    // A line ends at LF, CRLF or a lone CR (old Mac files).
                    if c == "\n" || (c == "\r" && (i == scalars.count || scalars[i] != "\n")) { line += 1 }
                    cell.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where cell.isEmpty && !afterQuote: quoted = true
            case ",":
                if afterQuote && cell.isEmpty { quotedEmpty.insert(cells.count) }
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\r" where i < scalars.count && scalars[i] == "\n": continue
            case "\n", "\r":
                if afterQuote && cell.isEmpty { quotedEmpty.insert(cells.count) }
                cells.append(cell)
                rows.append(Row(line: rowLine, cells: cells, quotedEmpty: quotedEmpty))
                cells = []
                quotedEmpty = []
                cell = ""
                afterQuote = false
                line += 1
                rowLine = line
            default:
                if afterQuote { throw SeedError("\(file):\(line): text after a closing quote") }
                cell.unicodeScalars.append(c)
            }
        }
        if quoted { throw SeedError("\(file):\(rowLine): a quoted cell is not closed") }
        if !cell.isEmpty || !cells.isEmpty || afterQuote {
            if afterQuote && cell.isEmpty { quotedEmpty.insert(cells.count) }
            cells.append(cell)
            rows.append(Row(line: rowLine, cells: cells, quotedEmpty: quotedEmpty))
        }
        return rows
    }
}

/// Where JSONSerialization stopped reading a text, as a line and column (1-based), from the
/// character offset its error names (`Invalid value around character 20.`), or the text's
/// end when the text ended early.
enum JSONErrorPlace {
    static func of(_ error: Error, in text: String) -> (line: Int, column: Int)? {
        let reason = reason(error)
        let offset: Int
        if let range = reason.range(of: "character ") {
            guard let number = Int(reason[range.upperBound...].prefix { $0.isNumber }) else { return nil }
            offset = number
        } else if reason.localizedCaseInsensitiveContains("end of file") || reason.localizedCaseInsensitiveContains("end of data") {
            offset = text.utf8.count
        } else {
            return nil
        }
        var line = 1
        var column = 1
        for (index, byte) in text.utf8.enumerated() {
            if index >= offset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // A column is a character's first byte, not each byte of it.
                column += 1
            }
        }
        return (line, column)
    }

    /// The parser's own words (`Invalid value around character 20.`), else the error's.
    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }
}
