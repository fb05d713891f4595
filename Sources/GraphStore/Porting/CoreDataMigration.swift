// Core Data's names for migration, declared unavailable so that a port's compile errors say
// what to write on GraphStore (see CoreDataStack.swift).

#if !canImport(CoreData)

/// Core Data's `NSMigrationManager`, as a migration policy meets it: on GraphStore,
/// ``MappingMigrationManager``. To migrate a store, ``MigrationManager`` plans and runs
/// every step (inferred or by mapping model) from the model bundle's versions.
@available(*, unavailable, renamed: "MappingMigrationManager")
public typealias NSMigrationManager = MappingMigrationManager

/// Core Data's `NSStagedMigrationManager`: on GraphStore, ``MigrationManager`` runs a
/// store through the bundle's versions (`MigrationPlan.Route.walk` for one step per pair).
@available(*, unavailable, message: "MigrationManager(bundle:) plans and runs a store's steps through the bundle's versions; custom steps are mapping models with EntityMigrationPolicy classes")
public typealias NSStagedMigrationManager = MigrationManager

/// Core Data's `NSMappingModel`: on GraphStore, ``MappingModel``.
@available(*, unavailable, renamed: "MappingModel")
public typealias NSMappingModel = MappingModel

/// Core Data's `NSEntityMapping`: on GraphStore, ``MappingModel/EntityMapping``.
@available(*, unavailable, renamed: "MappingModel.EntityMapping")
public typealias NSEntityMapping = MappingModel.EntityMapping

/// Core Data's `NSEntityMappingType`: on GraphStore, ``MappingModel/EntityMapping/Kind``.
@available(*, unavailable, renamed: "MappingModel.EntityMapping.Kind")
public typealias NSEntityMappingType = MappingModel.EntityMapping.Kind

/// Core Data's `NSPropertyMapping`: on GraphStore, ``MappingModel/PropertyMapping``.
@available(*, unavailable, renamed: "MappingModel.PropertyMapping")
public typealias NSPropertyMapping = MappingModel.PropertyMapping

/// Core Data's `NSEntityMigrationPolicy`: on GraphStore, ``EntityMigrationPolicy``, a Swift
/// class registered with ``MigrationPolicies``.
@available(*, unavailable, renamed: "EntityMigrationPolicy")
public typealias NSEntityMigrationPolicy = EntityMigrationPolicy

#endif
