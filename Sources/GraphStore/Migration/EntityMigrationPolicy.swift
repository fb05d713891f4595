/// What an entity mapping of a mapping model does, stage by stage: Core Data's
/// `NSEntityMigrationPolicy`, to subclass in Swift.
///
/// A run calls, for each entity mapping in the mapping model's order, ``begin(_:with:)``, then
/// ``createDestinationInstances(forSource:in:manager:)`` for each source object and
/// ``endInstanceCreation(forMapping:manager:)``; when every mapping has made its objects,
/// ``createRelationships(forDestination:in:manager:)`` for each object a mapping made and
/// ``endRelationshipCreation(forMapping:manager:)``; then
/// ``performCustomValidation(forMapping:manager:)`` and ``end(_:manager:)``. The objects are
/// plain managed objects of the manager's source and destination contexts.
///
/// The defaults do what Core Data's do: make one destination object per source object with
/// each attribute mapping's value, then set each relationship mapping's value. A subclass
/// overrides what it changes, usually calling `super` and then fixing the new object:
///
/// ```swift
/// final class AuthorSplitPolicy: EntityMigrationPolicy {
///     override func createDestinationInstances(
///         forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
///     ) throws {
///         try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
///         let book = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
///         let name = try source.get("authorName", as: String.self) ?? ""
///         try book.set("authorName", name.trimmingCharacters(in: .whitespaces))
///     }
/// }
///
/// var policies = MigrationPolicies()
/// policies.register(AuthorSplitPolicy.self)   // found as "AuthorSplitPolicy" or "App.AuthorSplitPolicy"
/// ```
///
/// `FUNCTION($entityPolicy, 'name:', …)` in a value expression calls
/// ``perform(function:arguments:manager:)``: override it to answer the selectors the mapping
/// model sends.
open class EntityMigrationPolicy {
    /// A policy; a run makes one per entity mapping that names the class.
    public required init() {}

    /// Called before the mapping makes any object.
    open func begin(_ mapping: MappingModel.EntityMapping, with manager: MappingMigrationManager) throws {}

    /// Makes the destination object(s) for one source object. The default makes one object
    /// of the mapping's destination entity, sets each attribute mapping's value, and
    /// associates it with `source` (``MappingMigrationManager/associate(sourceInstance:withDestinationInstance:for:)``).
    open func createDestinationInstances(
        forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try manager.createDefaultDestinationInstance(forSource: source, in: mapping)
    }

    /// Called when the mapping has made every object.
    open func endInstanceCreation(forMapping mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {}

    /// Sets the relationships of one object the mapping made. The default sets each
    /// relationship mapping's value.
    open func createRelationships(
        forDestination destination: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try manager.setDefaultRelationships(of: destination, in: mapping)
    }

    /// Called when every object the mapping made has its relationships.
    open func endRelationshipCreation(forMapping mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {}

    /// Checks of the policy's own, before the destination model's validation of every
    /// object. Throw to stop the migration (the store stays as it was).
    open func performCustomValidation(forMapping mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {}

    /// Called last, once per mapping.
    open func end(_ mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {}

    /// Answers `FUNCTION($entityPolicy, 'selector', arguments…)`. The default answers none:
    /// it throws an error naming the selector and the policy.
    open func perform(function selector: String, arguments: [PredicateValue], manager: MappingMigrationManager) throws -> PredicateValue {
        throw PredicateEvaluationError("the migration policy \(type(of: self)) has no function \(selector)")
    }
}
