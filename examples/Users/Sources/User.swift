import Foundation
import GraphStore

/// A user, as a Core Data app writes one: typed accessors, a derived display name, the
/// creation date set on insert, the e-mail kept in lower case, and validation in code that
/// the model cannot express.
final class User: ManagedObject {
    var firstName: String? { get throws { try get("firstName") } }
    func setFirstName(_ name: String?) throws { try set("firstName", name) }
    var lastName: String? { get throws { try get("lastName") } }
    func setLastName(_ name: String?) throws { try set("lastName", name) }
    var email: String? { get throws { try get("email") } }
    func setEmail(_ email: String?) throws { try set("email", email) }
    var notes: [Note] { get throws { try objects(forKey: "notes").compactMap { $0 as? Note } } }

    /// Derived, read-only: "Ada Lovelace".
    var displayName: String {
        get throws { [try firstName, try lastName].compactMap { $0 }.joined(separator: " ") }
    }

    /// A computed default: the moment the user is created (a primitive set, so that it is
    /// not a change of its own).
    override func awakeFromInsert() {
        try? setPrimitive("created", Date())
    }

    /// E-mail addresses are stored in lower case. The primitive setter keeps this from
    /// counting as a new change (which in Core Data would call willSave again).
    override func willSave() {
        guard !isDeleted, let email = try? get("email", as: String.self), email != email.lowercased() else { return }
        try? setPrimitive("email", email.lowercased())
    }

    /// Core Data's `validateFirstName`/`validateEmail`, as one override: the model's rules
    /// for the key first, then the app's.
    override func validateValue(_ value: AttributeValue?, forKey key: String) throws {
        try super.validateValue(value, forKey: key)
        switch key {
        case "firstName":
            if (value?.stringValue ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError(self, key: key, value: value, reason: "first name cannot be empty")
            }
        case "email":
            guard let email = value?.stringValue else { return }
            if email.range(of: #"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"#, options: .regularExpression) == nil {
                throw ValidationError(self, key: key, value: value, reason: "an e-mail address looks like name@example.org", code: .stringPatternMismatch)
            }
        default:
            break
        }
    }

    /// The standard check (Deny rules) first, then the app's: users with notes stay.
    override func validateForDelete() throws {
        try super.validateForDelete()
        let count = try notes.count
        if count > 0 {
            throw ValidationError(self, key: "notes", reason: "a user who still has \(count) note\(count == 1 ? "" : "s") cannot be deleted")
        }
    }
}

/// A note, dated when it is made.
final class Note: ManagedObject {
    override func awakeFromInsert() {
        try? setPrimitive("created", Date())
    }
}
