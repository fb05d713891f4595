/// The migration policy classes and function classes a run may use, by the names mapping
/// models give them.
///
/// A mapping model names its policy class as Xcode wrote it, often with the app's module
/// (`SongbookSimple.LegacyToModernPolicy`); Swift has no runtime lookup by name, so a class
/// is registered, and found by its name with or without a module. `FUNCTION(CAST('Name',
/// 'Class'), 'selector:', …)` calls a class's functions, registered the same way.
///
/// ```swift
/// var policies = MigrationPolicies()
/// policies.register(LegacyToModernPolicy.self)
/// policies.register(functions: ["getFirstName:": { args in .string(firstWord(args[0])) }], forClassNamed: "MigrationFunctions")
/// let manager = MigrationManager(bundle: bundle, policies: policies)
/// ```
public struct MigrationPolicies: Sendable {
    /// A class function: its arguments in, its value out.
    public typealias Function = @Sendable ([PredicateValue]) throws -> PredicateValue

    private var policies: [String: @Sendable () -> EntityMigrationPolicy] = [:]
    private var functionClasses: [String: [String: Function]] = [:]

    /// No policy registered: every mapping runs Core Data's default policy, and a mapping
    /// that names a class is refused.
    public init() {}

    /// Registers a policy class under `name` (by default its own name, without module).
    public mutating func register<Policy: EntityMigrationPolicy>(_ type: Policy.Type, as name: String? = nil) {
        policies[MigrationPolicies.unqualified(name ?? String(describing: type))] = { Policy() }
    }

    /// Registers the functions a class answers, by selector (`"getFirstName:"`).
    public mutating func register(functions: [String: Function], forClassNamed name: String) {
        functionClasses[MigrationPolicies.unqualified(name), default: [:]].merge(functions) { _, new in new }
    }

    /// The registered policy names, sorted.
    public var registeredNames: [String] { policies.keys.sorted() }

    /// Whether a policy class of this name (with or without module) is registered.
    public func contains(policyNamed name: String) -> Bool {
        MigrationPolicies.isDefault(name) || policies[MigrationPolicies.unqualified(name)] != nil
    }

    /// A new policy of the class named `name`, or nil when none is registered.
    func policy(named name: String) -> EntityMigrationPolicy? {
        MigrationPolicies.isDefault(name) ? EntityMigrationPolicy() : policies[MigrationPolicies.unqualified(name)]?()
    }

    /// Whether a mapping's policy class name is Core Data's default policy: none, or
    /// `NSEntityMigrationPolicy` itself, which a mapping model may name.
    static func isDefault(_ name: String?) -> Bool {
        guard let name, !name.isEmpty else { return true }
        return unqualified(name) == "NSEntityMigrationPolicy"
    }

    /// The registered function classes as `CAST('Name', 'Class')` finds them.
    var classValues: [String: PredicateValue] {
        var values: [String: PredicateValue] = [:]
        for (name, functions) in functionClasses {
            values[name] = .object(FunctionClass(name: name, functions: functions))
        }
        return values
    }

    /// `Module.Name` → `Name`: Xcode writes the module only when the class is Swift.
    static func unqualified(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}

/// A registered function class as an expression's receiver.
private struct FunctionClass: SelectorReceiver {
    let name: String
    let functions: [String: MigrationPolicies.Function]

    func value(forKey key: String) -> PredicateValue { .null }

    func perform(_ selector: String, _ arguments: [PredicateValue]) throws -> PredicateValue? {
        guard let function = functions[selector] else {
            throw PredicateEvaluationError(
                "the class \(name) has no function \(selector) (registered: \(functions.keys.sorted().joined(separator: ", ")))")
        }
        return try function(arguments)
    }
}
