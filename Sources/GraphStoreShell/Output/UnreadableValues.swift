import GraphStore

/// The stored values a command could not read and showed a placeholder for instead: a
/// value kept in an external data file that is missing, or one stored in a form its type
/// cannot be read from (text `"abc"` in a Date column). The object is shown all the same;
/// the command ends with one warning on the diagnostics that counts them.
struct UnreadableValues: Sendable {
    /// Values kept in external data files that are not there.
    var missingFiles = 0
    /// Values kept in external data files that are there but are not read (a symbolic
    /// link, a FIFO, a device, a directory, too large).
    var refusedFiles = 0
    /// Values that cannot be read as their attribute's type.
    var malformed = 0

    var total: Int { missingFiles + refusedFiles + malformed }

    /// The placeholder for a value whose reading failed with `error`, counted; nil when the
    /// error is not about one value (the command fails with it).
    mutating func placeholder(for error: StoreError) -> Cell? {
        switch error {
        case .externalDataMissing(_, _, _, let file):
            missingFiles += 1
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return .placeholder(text: "<external \(name) missing>", json: "{\"externalReference\": \(JSONText.string(name)), \"missing\": true}")
        case .externalDataUnreadable(_, _, _, let file, let problem):
            refusedFiles += 1
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return .placeholder(
                text: "<external \(name) \(problem)>",
                json: "{\"externalReference\": \(JSONText.string(name)), \"unreadable\": \(JSONText.string(problem.description))}")
        case .malformedValue(_, _, _, _, let found, let expected):
            malformed += 1
            return .placeholder(
                text: "<\(found), not \(expected)>",
                json: "{\"unreadable\": \(JSONText.string(found)), \"expected\": \(JSONText.string(expected))}")
        default:
            return nil
        }
    }

    /// `warning: 2 values could not be read (1 external data file missing, 1 not of its type)`.
    var warning: String {
        var parts: [String] = []
        if missingFiles > 0 { parts.append("\(missingFiles) external data file\(missingFiles == 1 ? "" : "s") missing") }
        if refusedFiles > 0 { parts.append("\(refusedFiles) external data file\(refusedFiles == 1 ? "" : "s") not read") }
        if malformed > 0 { parts.append("\(malformed) not readable as \(malformed == 1 ? "its type" : "their types")") }
        return "warning: \(total) value\(total == 1 ? "" : "s") could not be read and \(total == 1 ? "is" : "are") shown in place (\(parts.joined(separator: ", ")))"
    }
}

extension Shell {
    /// The cell of an object's attribute: its value, or the placeholder of a value that
    /// cannot be read (counted for the command's warning). A Transformable value that is a
    /// keyed archive of Foundation's plist classes is shown decoded (`.transformed on`);
    /// bytes that do not decode are shown as bytes, never an error.
    func attributeCell(_ object: ManagedObject, key: String) throws -> Cell {
        try attributeCell(transformable: object.mapping.attribute(named: key)?.attribute.type == .transformable) { try object.value(forKey: key) }
    }

    /// The cell of the value `read` gives (see ``attributeCell(_:key:)``).
    func attributeCell(transformable: Bool, _ read: () throws -> AttributeValue?) throws -> Cell {
        do {
            guard let value = try read() else { return .null }
            return valueCell(value, transformable: transformable)
        } catch let error as StoreError {
            guard let cell = state.unreadableValues.placeholder(for: error) else { throw error }
            return cell
        }
    }

    /// The cell of a value: a Transformable one decoded when its bytes are a keyed archive
    /// of Foundation's plist classes and `.transformed` is on, as it is shown otherwise.
    func valueCell(_ value: AttributeValue, transformable: Bool) -> Cell {
        if transformable, settings.transformedValues, case .data(let bytes) = value, let decoded = try? PropertyListValue(keyedArchive: bytes) {
            return .transformed(decoded)
        }
        return .value(value)
    }

    /// The cell of a stored row's value that could not be read (counted).
    func unreadableCell(_ error: StoreError) -> Cell? {
        state.unreadableValues.placeholder(for: error)
    }

    /// After a command: one warning for the values it showed placeholders for.
    func warnAboutUnreadableValues() {
        let unreadable = state.unreadableValues
        guard unreadable.total > 0 else { return }
        state.unreadableValues = UnreadableValues()
        state.hasWarned = true
        flushOutput()
        diagnostics(unreadable.warning + "\n")
    }
}
