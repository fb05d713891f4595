import GraphStore

/// Validation failures as result rows: the same columns for `validate` and for a failed
/// `save`, so that a script reads both the same way.
enum ValidationRows {
    static let columns = ["object", "entity", "key", "value", "rule", "code"]

    static func cells(_ error: ValidationError) -> [Cell] {
        [
            .text(error.objectID.description), .text(error.entity), error.key.map(Cell.text) ?? .null,
            error.value.map(Cell.value) ?? .null, .text(error.rule.description), .value(.integer(Int64(error.code.rawValue))),
        ]
    }

    /// Prints the rows of a failed save and returns the error that ends the command: the
    /// messages (each saying why), and that nothing was written.
    static func saveFailure(_ shell: Shell, _ failure: any ValidationErrorReporting) -> ShellError {
        let errors = failure.validationErrors
        shell.emit(columns: columns) { sink in
            for error in errors { sink.row(cells(error)) }
        }
        let conflict = failure is ConstraintConflictError
        let code = errors.count == 1 ? errors[0].code.rawValue : conflict ? ValidationErrorCode.constraintConflict.rawValue : 1560
        let kind = conflict ? "uniqueness conflict" : "validation error"
        let heading = "save failed (\(code)): \(errors.count) \(kind)\(errors.count == 1 ? "" : "s"); "
            + "nothing was written and the changes are still pending (fix them and save, or rollback)"
        return ShellError(([heading] + errors.map { "  \($0)" }).joined(separator: "\n"), exitCode: ExitStatus.validationFailures)
    }
}

/// `Book/p4` or `Book/p4.category` as typed in object commands.
struct ObjectReference {
    var object: String
    var key: String?

    init(_ word: String, wantsKey: Bool) throws(ShellError) {
        let slash = word.firstIndex(of: "/")
        let dot = slash.flatMap { word[$0...].firstIndex(of: ".") }
        if wantsKey {
            guard let dot, slash != nil else { throw ShellError("expected ENTITY/KEY.relationship (Item/p1.unit), not \(word)") }
            object = String(word[..<dot])
            key = String(word[word.index(after: dot)...])
        } else {
            guard slash != nil, dot == nil else { throw ShellError("expected ENTITY/KEY (Book/p4, or Book/t1 for an unsaved insert), not \(word)") }
            object = word
        }
    }

    /// The object in the shell's context.
    func resolve(in shell: Shell) throws -> ManagedObject {
        let context = try shell.requireContext()
        do {
            return try context.object(named: object)
        } catch {
            throw ShellError("\(error)")
        }
    }
}
