import CSQLiteRaw

/// The least an object-per-row enumeration does, written by hand for this one entity: the
/// raw C loop over the columns a fetch needs (`Z_PK` for identity, `Z_OPT` for the version,
/// and the three values; no `Z_ENT`, as Word has no sub-entities), and for each row an object
/// made with typed stored properties, entered in an identity map (a dictionary by `Z_PK`),
/// read by key three times, then taken out of the map and freed. No faults, change tracking,
/// relationships, errors or entity lookups: a floor for any design that makes an object per
/// row, to set the 1.5× target of the 1M enumeration against
/// (`child fetch floor STORE`; `count-instructions fetch STORE "floor raw"`).
enum ObjectFloor {
    enum Value {
        case null
        case integer(Int64)
        case text(String)
    }

    final class Object {
        let key: Int64
        let version: Int64
        let text: String
        let length: Int64
        let category: Int64

        init(key: Int64, version: Int64, text: String, length: Int64, category: Int64) {
            self.key = key
            self.version = version
            self.text = text
            self.length = length
            self.category = category
        }

        /// A value by key, as an API that takes key names must offer.
        @inline(never)
        func value(forKey key: String) -> Value {
            switch key {
            case "text": .text(text)
            case "length": .integer(length)
            case "wordCategory": .integer(category)
            default: .null
            }
        }
    }

    static func run(_ path: String) throws -> Int {
        try FetchBenchmark.withRawStatement(path, "SELECT Z_PK, Z_OPT, ZTEXT, ZLENGTH, ZWORDCATEGORY FROM ZWORD") { statement in
            var registry: [Int64: Object] = [:]
            var checksum = 0
            while sqlite3_step(statement) == SQLITE_ROW {
                let key = sqlite3_column_int64(statement, 0)
                let word = Object(
                    key: key, version: sqlite3_column_int64(statement, 1), text: String(cString: sqlite3_column_text(statement, 2)),
                    length: sqlite3_column_int64(statement, 3), category: sqlite3_column_int64(statement, 4))
                registry[key] = word
                if case .text(let text) = word.value(forKey: "text"), case .integer(let length) = word.value(forKey: "length"),
                    case .integer(let category) = word.value(forKey: "wordCategory")
                {
                    checksum &+= text.utf8.count &+ Int(length) &+ Int(category)
                }
                registry[key] = nil
            }
            return checksum
        }
    }
}
