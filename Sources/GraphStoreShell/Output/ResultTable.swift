import GraphStore

/// One value in a result: typed so that JSON keeps numbers as numbers and dates as text.
public enum Cell: Sendable, Hashable {
    case null
    case value(AttributeValue)
    case text(String)
    /// No such property for this row (a column a sub-entity adds, on a row of its parent):
    /// empty in text modes, left out of JSON, JSONL and line records.
    case absent
    /// What is shown in a stored value's place: one that could not be read, or a reference
    /// not followed (`.rows`); `text` in the text modes
    /// (`<text "abc", not Date>`), `json` (a JSON value) in the JSON modes.
    case placeholder(text: String, json: String)
    /// A Transformable value decoded from its keyed archive (`.transformed on`): JSON text in
    /// the text modes, JSON in the JSON modes (see ``TransformedValueText``).
    case transformed(PropertyListValue)
    /// An object's ID in its short form (`Book/p4`), written without a string of its own.
    case objectID(ObjectID)
    /// An object's ID as Core Data's URI (`x-coredata://<store UUID>/Book/p4`).
    case objectURI(ObjectID)

    /// The cell as plain text (`nullText` for NULL).
    public func rendered(null nullText: String) -> String {
        switch self {
        case .null: nullText
        case .absent: ""
        case .value(let v): v.description
        case .text(let s): s
        case .placeholder(let text, _): text
        case .transformed(let value): TransformedValueText.text(value, wholeBytes: true, timeZone: .gmt)
        case .objectID(let id): id.description
        case .objectURI(let id): id.uriRepresentation
        }
    }
}

/// Receives a result as it is produced: the column names, then rows one at a time, so that
/// large results stream instead of being held in memory.
public protocol ResultSink: AnyObject {
    /// Starts a result with these columns.
    func begin(columns: [String])
    /// Adds one row (one cell per column).
    func row(_ cells: [Cell])
    /// Ends the result.
    func end()
}
