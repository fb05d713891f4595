import CSQLiteRaw

/// The least an object-per-row enumeration does, written by hand: the raw C loop over the
/// six columns a fetch reads (`Z_PK, Z_ENT, Z_OPT` and the three values), and for each row
/// an object made, entered in an identity map (a dictionary by `Z_PK`), handed to a closure
/// that reads three values by key, then taken out of the map and freed. No faults, change
/// tracking, relationships, errors or entity lookups: a floor for any design that makes an
/// object per row, to set the 1.5× target of the 1M enumeration against
/// (`child fetch floor STORE`; `count-instructions fetch STORE "floor raw"`).
enum ObjectFloor {
    enum Value {
        case null
        case integer(Int64)
        case text(String)
    }

    final class Object {
        static let keys = ["text", "length", "wordCategory"]
        let key: Int64
        let entity: Int64
        let version: Int64
        var values: (Value, Value, Value)

        init(key: Int64, entity: Int64, version: Int64, values: (Value, Value, Value)) {
            self.key = key
            self.entity = entity
            self.version = version
            self.values = values
        }

        /// A value by key: the position of the name, then the value there.
        @inline(never)
        func value(forKey key: String) -> Value {
            switch Object.keys.firstIndex(of: key) {
            case 0: values.0
            case 1: values.1
            case 2: values.2
            default: .null
            }
        }
    }

    static func run(_ path: String) throws -> Int {
        try FetchBenchmark.withRawStatement(path, "SELECT Z_PK, Z_ENT, Z_OPT, ZTEXT, ZLENGTH, ZWORDCATEGORY FROM ZWORD") { statement in
            var registry: [Int64: Object] = [:]
            var checksum = 0
            let body = { (word: Object) in
                guard case .text(let text) = word.value(forKey: "text"), case .integer(let length) = word.value(forKey: "length"),
                    case .integer(let category) = word.value(forKey: "wordCategory")
                else { return }
                checksum &+= text.utf8.count &+ Int(length) &+ Int(category)
            }
            while sqlite3_step(statement) == SQLITE_ROW {
                let key = sqlite3_column_int64(statement, 0)
                let object = Object(
                    key: key, entity: sqlite3_column_int64(statement, 1), version: sqlite3_column_int64(statement, 2),
                    values: (
                        .text(String(cString: sqlite3_column_text(statement, 3))), .integer(sqlite3_column_int64(statement, 4)),
                        .integer(sqlite3_column_int64(statement, 5))
                    ))
                registry[key] = object
                body(object)
                registry[key] = nil
            }
            return checksum
        }
    }
}
