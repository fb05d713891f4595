import Foundation

/// Runs one mapping model over a whole store, in Core Data's three stages: every entity
/// mapping makes its destination objects, then sets their relationships, then checks them
/// (`NSMigrationManager`, as policies and value expressions see it: `$manager`).
///
/// Objects are plain managed objects: the source context reads the store as it is, the
/// destination context writes the new file. Memory stays bounded whatever the store's size:
/// the destination is saved and let go of every ``batchSize`` objects, and which object was
/// made from which is kept on disk (``MigrationAssociations``), not in memory as Core Data
/// keeps it. The new file is only a candidate: ``MigrationManager`` validates it and puts
/// it in place, or removes it.
///
/// A policy asks the manager for the objects other mappings made:
///
/// ```swift
/// let authors = try manager.destinationInstances(forEntityMappingName: "AuthorToPerson", sourceInstances: [source])
/// ```
public final class MappingMigrationManager {
    /// The mapping model being run.
    public let mappingModel: MappingModel
    /// The source store's objects (read only).
    public let sourceContext: ManagedObjectContext
    /// The new store's objects.
    public let destinationContext: ManagedObjectContext
    /// The entity mapping being run.
    public private(set) var currentEntityMapping: MappingModel.EntityMapping?
    /// How many objects are made (or given their relationships) between two saves.
    public let batchSize: Int

    let fileName: String
    private let associations: MigrationAssociations
    private let classes: [String: PredicateValue]
    private let numbers: [String: Int]
    private var policies: [String: EntityMigrationPolicy] = [:]
    private var expressions: [String: ObjectExpression] = [:]
    /// Each mapping's property expressions and bindings, worked out once.
    private var preparedMappings: [String: PreparedMapping] = [:]
    /// The object the relationship stage is at, and the source it was made from (read with
    /// the page, so the default policy does not look it up again).
    private var currentAssociation: (source: MigrationAssociations.Place, destination: ManagedObject)?
    /// The bindings of the default policy's evaluations, for the mapping `liveBindingsOwner`.
    private var liveBindings: [String: PredicateValue] = [:]
    private var liveBindingsOwner: String?
    private let readErrors = PredicateReadErrors()
    /// Objects made since the last save, by mapping and source, with their temporary IDs.
    private var unsaved: [UnsavedKey: [ManagedObject]] = [:]
    private var unsavedOrder: [(UnsavedKey, ManagedObject)] = []
    private var handled = 0

    /// What evaluating a mapping's expressions needs, worked out once per mapping.
    private struct PreparedMapping {
        struct Property {
            var mapping: MappingModel.PropertyMapping
            var text: String
            var expression: ObjectExpression
            /// `$propertyMapping`.
            var binding: PredicateValue
        }
        var attributes: [Property]
        var relationships: [Property]
        /// `$entityMapping` and `$entityPolicy`.
        var bindings: [String: PredicateValue]
    }

    private struct UnsavedKey: Hashable {
        var mapping: Int
        var entity: Int
        var key: Int64
    }

    init(
        mappingModel: MappingModel, fileName: String, source: PersistentStore, destination: PersistentStore,
        policies: MigrationPolicies, associationsPath: String, batchSize: Int = 2_000
    ) throws(MigrationRunError) {
        self.mappingModel = mappingModel
        self.fileName = fileName
        self.batchSize = batchSize
        sourceContext = ManagedObjectContext(store: source)
        destinationContext = ManagedObjectContext(store: destination)
        // Core Data's migration validates once, at the end, not on each of its saves: an
        // object has no relationships yet when the first stage saves it.
        destinationContext.validatesOnSave = false
        destinationContext.savesHistory = false
        classes = policies.classValues
        numbers = Dictionary(mappingModel.entityMappings.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        for mapping in mappingModel.entityMappings {
            guard let name = mapping.policyClassName, !name.isEmpty else { continue }
            guard let policy = policies.policy(named: name) else {
                throw .unknownPolicy(mappingModel: fileName, mapping: mapping.name, className: name, registered: policies.registeredNames)
            }
            self.policies[mapping.name] = policy
        }
        do {
            associations = try MigrationAssociations(path: associationsPath)
        } catch {
            throw .store(error)
        }
    }

    deinit { associations.remove() }

    /// Deletes the association table's file: the run is over, succeeded or not.
    func finish() { associations.remove() }

    /// The entity mappings that run: every one with a destination entity (a "remove"
    /// mapping makes nothing).
    private var running: [(index: Int, mapping: MappingModel.EntityMapping)] {
        mappingModel.entityMappings.enumerated().compactMap { index, mapping in
            mapping.kind != .remove && mapping.destinationEntity != nil ? (index, mapping) : nil
        }
    }

    private func policy(for mapping: MappingModel.EntityMapping) -> EntityMigrationPolicy {
        if let policy = policies[mapping.name] { return policy }
        let policy = EntityMigrationPolicy()
        policies[mapping.name] = policy
        return policy
    }

    // MARK: - The three stages

    /// Runs every stage; `progress` is called with the number of objects handled so far.
    func run(progress: (Int) -> Void) throws(MigrationRunError) {
        for (index, mapping) in running {
            try stage(mapping, object: nil) {
                try policy(for: mapping).begin(mapping, with: self)
                try createDestinationInstances(mapping, index: index, progress: progress)
                try policy(for: mapping).endInstanceCreation(forMapping: mapping, manager: self)
            }
        }
        for (index, mapping) in running {
            try stage(mapping, object: nil) {
                try createRelationships(mapping, index: index, progress: progress)
                try policy(for: mapping).endRelationshipCreation(forMapping: mapping, manager: self)
            }
        }
        for (_, mapping) in running {
            try stage(mapping, object: nil) { try policy(for: mapping).performCustomValidation(forMapping: mapping, manager: self) }
        }
        for (_, mapping) in running {
            try stage(mapping, object: nil) {
                try policy(for: mapping).end(mapping, manager: self)
                try saveBatch()
            }
        }
        currentEntityMapping = nil
    }

    /// Runs `body` with `mapping` current, turning what it throws into an error naming the
    /// mapping model, the mapping and the object.
    private func stage(_ mapping: MappingModel.EntityMapping, object: String?, _ body: () throws -> Void) throws(MigrationRunError) {
        currentEntityMapping = mapping
        do {
            try body()
        } catch let error as MigrationRunError {
            throw error
        } catch let error as MappingObjectError {
            throw .mappingFailed(mappingModel: fileName, mapping: mapping.name, object: error.object, reason: "\(error.underlying)")
        } catch {
            throw .mappingFailed(mappingModel: fileName, mapping: mapping.name, object: object, reason: "\(error)")
        }
    }

    /// Stage 1 for one mapping: each source object of exactly the source entity (its
    /// sub-entities have mappings of their own) that passes the filter.
    private func createDestinationInstances(_ mapping: MappingModel.EntityMapping, index: Int, progress: (Int) -> Void) throws {
        guard let sourceEntity = mapping.sourceEntity else { return }
        let filter = mapping.sourceFilter.flatMap { $0 == "TRUEPREDICATE" ? nil : $0 }
        var request = FetchRequest<ManagedObject>(entityName: sourceEntity, predicate: try filter.map { try ObjectPredicate(format: $0) })
        request.includesSubentities = false
        let policy = policy(for: mapping)
        try sourceContext.enumerate(request) { source in
            do {
                try policy.createDestinationInstances(forSource: source, in: mapping, manager: self)
            } catch {
                throw MappingObjectError(object: "source \(source.objectID)", underlying: error)
            }
            handled += 1
            if unsavedOrder.count >= batchSize {
                try saveBatch()
                progress(handled)
            }
        }
        try saveBatch()
        sourceContext.reset()
        progress(handled)
    }

    /// Stage 2 for one mapping: each object it made, a page at a time.
    private func createRelationships(_ mapping: MappingModel.EntityMapping, index: Int, progress: (Int) -> Void) throws {
        let policy = policy(for: mapping)
        // Core Data's default sets relationship mappings only: with none, and no policy of
        // the app's, reading every object again would do nothing.
        if type(of: policy) == EntityMigrationPolicy.self, try prepared(mapping).relationships.isEmpty { return }
        // Objects a policy makes and associates during this stage are not visited again.
        let last = try associations.lastRow()
        var after: Int64 = 0
        while true {
            let page = try associations.page(mapping: index, after: after, through: last, limit: batchSize)
            if page.associations.isEmpty { break }
            after = page.last
            for association in page.associations {
                let destination = try destinationObject(association.destination)
                currentAssociation = (association.source, destination)
                defer { currentAssociation = nil }
                do {
                    try policy.createRelationships(forDestination: destination, in: mapping, manager: self)
                } catch {
                    throw MappingObjectError(object: "destination \(destination.objectID)", underlying: error)
                }
                handled += 1
            }
            try saveBatch()
            sourceContext.reset()
            progress(handled)
        }
    }

    /// Saves the destination (without validation: that comes last), records the
    /// associations of the objects made since the last save under their permanent keys,
    /// and lets go of every object.
    func saveBatch() throws {
        try destinationContext.save()
        for (key, object) in unsavedOrder {
            guard let primaryKey = object.objectID.primaryKey else { continue }
            try associations.add(
                mapping: key.mapping, source: (key.entity, key.key), destination: (object.objectID.mapping.number, primaryKey))
        }
        try associations.flush()
        unsaved = [:]
        unsavedOrder = []
        destinationContext.reset()
    }

    // MARK: - What policies call

    /// Records that `mapping` made `destination` from `source`, so that relationship
    /// mappings find it (`destinationInstancesForEntityMappingNamed:sourceInstances:`).
    public func associate(
        sourceInstance source: ManagedObject, withDestinationInstance destination: ManagedObject, for mapping: MappingModel.EntityMapping
    ) throws {
        guard let index = numbers[mapping.name] else {
            throw PredicateEvaluationError("the mapping model has no entity mapping named \(mapping.name)")
        }
        let key = UnsavedKey(mapping: index, entity: source.objectID.mapping.number, key: try place(of: source).key)
        unsaved[key, default: []].append(destination)
        unsavedOrder.append((key, destination))
    }

    /// The destination objects the entity mapping named `name` made from `sources`, in
    /// order (Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`).
    public func destinationInstances(forEntityMappingName name: String, sourceInstances sources: [ManagedObject]) throws -> [ManagedObject] {
        guard let index = numbers[name] else {
            throw PredicateEvaluationError("the mapping model has no entity mapping named \(name)")
        }
        return try destinations(mapping: index, of: sources)
    }

    /// The source objects the entity mapping named `name` made `destinations` from.
    public func sourceInstances(forEntityMappingName name: String, destinationInstances destinations: [ManagedObject]) throws -> [ManagedObject] {
        guard let index = numbers[name] else {
            throw PredicateEvaluationError("the mapping model has no entity mapping named \(name)")
        }
        var found: [ManagedObject] = []
        for destination in destinations {
            if let pending = unsavedOrder.first(where: { $0.1 === destination }) {
                found.append(try sourceObject((pending.0.entity, pending.0.key)))
                continue
            }
            for place in try associations.sources(mapping: index, destination: try place(of: destination)) {
                found.append(try sourceObject(place))
            }
        }
        return found
    }

    /// The destination objects any mapping made from `sources` (Core Data's
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`, which the
    /// compiler generates where no single mapping makes the relationship's destination).
    public func destinationInstances(forSourceRelationshipNamed name: String, sourceInstances sources: [ManagedObject]) throws -> [ManagedObject] {
        try destinations(mapping: nil, of: sources)
    }

    private func destinations(mapping: Int?, of sources: [ManagedObject]) throws -> [ManagedObject] {
        var found: [ManagedObject] = []
        for source in sources {
            let place = try place(of: source)
            if let mapping {
                found += unsaved[UnsavedKey(mapping: mapping, entity: place.entity, key: place.key)] ?? []
            } else {
                found += unsavedOrder.filter { $0.0.entity == place.entity && $0.0.key == place.key }.map(\.1)
            }
            for destination in try associations.destinations(mapping: mapping, source: place) {
                found.append(try destinationObject(destination))
            }
        }
        return found
    }

    private func place(of object: ManagedObject) throws -> MigrationAssociations.Place {
        guard let key = object.objectID.primaryKey else {
            throw PredicateEvaluationError("\(object.objectID) is not saved yet, so no mapping has made anything from it")
        }
        return (object.objectID.mapping.number, key)
    }

    private func destinationObject(_ place: MigrationAssociations.Place) throws -> ManagedObject {
        try object(place, in: destinationContext)
    }

    private func sourceObject(_ place: MigrationAssociations.Place) throws -> ManagedObject {
        try object(place, in: sourceContext)
    }

    private func object(_ place: MigrationAssociations.Place, in context: ManagedObjectContext) throws -> ManagedObject {
        guard let mapping = context.store.mapping(number: place.entity) else {
            throw StoreError.objectNotFound("entity \(place.entity)/p\(place.key)")
        }
        return try context.object(for: ObjectID(mapping: mapping, primaryKey: place.key))
    }

    // MARK: - The default policy

    /// Core Data's default: one object of the destination entity, each attribute mapping's
    /// value set, associated with its source.
    func createDefaultDestinationInstance(forSource source: ManagedObject, in mapping: MappingModel.EntityMapping) throws {
        guard let entity = mapping.destinationEntity else { return }
        let destination = try destinationContext.insert(entity)
        let prepared = try prepared(mapping)
        for property in prepared.attributes {
            let value = try evaluate(property, bindings: prepared.bindings, source: source, destination: destination)
            try set(value, forAttribute: property.mapping.name, of: destination, expression: property.text)
        }
        try associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
    }

    /// Core Data's default: each relationship mapping's value set on the object, evaluated
    /// against the object it was made from.
    func setDefaultRelationships(of destination: ManagedObject, in mapping: MappingModel.EntityMapping) throws {
        let prepared = try prepared(mapping)
        guard !prepared.relationships.isEmpty, let index = numbers[mapping.name] else { return }
        let sourcePlace: MigrationAssociations.Place
        if let current = currentAssociation, current.destination === destination {
            sourcePlace = current.source
        } else if let found = try associations.sources(mapping: index, destination: try place(of: destination)).first {
            sourcePlace = found
        } else {
            return
        }
        let source = try sourceObject(sourcePlace)
        for property in prepared.relationships {
            let value = try evaluate(property, bindings: prepared.bindings, source: source, destination: destination)
            try set(value, forRelationship: property.mapping.name, of: destination, expression: property.text)
        }
    }

    /// The mapping's expressions parsed and its bindings made, once.
    private func prepared(_ mapping: MappingModel.EntityMapping) throws -> PreparedMapping {
        if let prepared = preparedMappings[mapping.name] { return prepared }
        let properties = { (mappings: [MappingModel.PropertyMapping]) throws -> [PreparedMapping.Property] in
            try mappings.compactMap { property in
                guard let text = self.mappingModel.valueExpression(of: property, in: mapping).expression else { return nil }
                return PreparedMapping.Property(
                    mapping: property, text: text, expression: try self.parsed(text),
                    binding: .object(KeyValueDictionary(["name": .string(property.name), "valueExpression": .string(text)])))
            }
        }
        let prepared = PreparedMapping(
            attributes: try properties(mapping.attributeMappings), relationships: try properties(mapping.relationshipMappings),
            bindings: bindings(for: mapping))
        preparedMappings[mapping.name] = prepared
        return prepared
    }

    /// `$entityMapping` and `$entityPolicy` of a mapping.
    private func bindings(for mapping: MappingModel.EntityMapping) -> [String: PredicateValue] {
        [
            "entityMapping": .object(KeyValueDictionary([
                "name": .string(mapping.name), "sourceEntityName": mapping.sourceEntity.map(PredicateValue.string) ?? .null,
                "destinationEntityName": mapping.destinationEntity.map(PredicateValue.string) ?? .null,
                "userInfo": .object(KeyValueDictionary(mapping.userInfo.mapValues(PredicateValue.string))),
            ])),
            "entityPolicy": .object(PolicyReceiver(policy: policy(for: mapping), manager: self)),
        ]
    }

    private func evaluate(
        _ property: PreparedMapping.Property, bindings: [String: PredicateValue], source: ManagedObject, destination: ManagedObject
    ) throws -> PredicateValue {
        // One dictionary of bindings, changed in place from one object to the next (no
        // dictionary made per value).
        if liveBindingsOwner != currentEntityMapping?.name {
            liveBindings = bindings
            liveBindings["manager"] = .object(ManagerReceiver(manager: self, errors: readErrors))
            liveBindingsOwner = currentEntityMapping?.name
        }
        liveBindings["propertyMapping"] = property.binding
        liveBindings["source"] = .object(ManagedObjectValues(object: source, errors: readErrors))
        liveBindings["destination"] = .object(ManagedObjectValues(object: destination, errors: readErrors))
        defer {
            // Let go of the objects: a source object still bound here could not be let go of
            // by the fetch that streams the sources, and every one would stay in memory.
            liveBindings["source"] = .null
            liveBindings["destination"] = .null
            readErrors.clear()
        }
        return try value(of: property.expression, variables: liveBindings, errors: readErrors)
    }

    // MARK: - Value expressions

    /// The value of a value expression with `$source`, `$destination`, `$manager`,
    /// `$entityMapping`, `$propertyMapping` and `$entityPolicy` bound.
    public func evaluate(
        _ text: String, property: MappingModel.PropertyMapping? = nil, source: ManagedObject?, destination: ManagedObject?
    ) throws -> PredicateValue {
        var variables = currentEntityMapping.map(bindings(for:)) ?? [:]
        if let property {
            variables["propertyMapping"] = .object(KeyValueDictionary(["name": .string(property.name), "valueExpression": .string(text)]))
        }
        return try evaluate(try parsed(text), variables: variables, source: source, destination: destination)
    }

    private func evaluate(
        _ expression: ObjectExpression, variables bound: [String: PredicateValue], source: ManagedObject?, destination: ManagedObject?
    ) throws -> PredicateValue {
        let errors = PredicateReadErrors()
        var variables = bound
        variables["manager"] = .object(ManagerReceiver(manager: self, errors: errors))
        if let source { variables["source"] = .object(ManagedObjectValues(object: source, errors: errors)) }
        if let destination { variables["destination"] = .object(ManagedObjectValues(object: destination, errors: errors)) }
        return try value(of: expression, variables: variables, errors: errors)
    }

    /// The expression's value, or the first error reading an object raised.
    private func value(of expression: ObjectExpression, variables: [String: PredicateValue], errors: PredicateReadErrors) throws -> PredicateValue {
        var evaluator = PredicateEvaluator(variables: variables)
        evaluator.classes = classes
        let value: PredicateValue
        do {
            value = try evaluator.value(of: expression, on: .null)
        } catch {
            throw errors.first ?? error
        }
        if let error = errors.first { throw error }
        return value
    }

    private func parsed(_ text: String) throws -> ObjectExpression {
        if let expression = expressions[text] { return expression }
        let expression = try ObjectExpression(format: text)
        expressions[text] = expression
        return expression
    }

    private func set(_ value: PredicateValue, forAttribute name: String, of destination: ManagedObject, expression: String) throws {
        switch value {
        case .null:
            try destination.setValue(nil, forKey: name)
        case .attribute(let attribute):
            try destination.setValue(attribute, forKey: name)
        default:
            throw PredicateEvaluationError(
                "\(name) = \(expression) gives \(ValueComparison.kind(of: value)), not a value an attribute holds")
        }
    }

    private func set(_ value: PredicateValue, forRelationship name: String, of destination: ManagedObject, expression: String) throws {
        let elements: [PredicateValue] = value.isNull ? [] : value.collectionElements ?? [value]
        let objects = try elements.map { element -> ManagedObject in
            guard case .object(let source) = element, let values = source as? ManagedObjectValues,
                values.object.managedObjectContext === destinationContext
            else {
                throw PredicateEvaluationError(
                    "\(name) = \(expression) gives \(ValueComparison.kind(of: element)), not objects of the new store "
                        + "(a relationship mapping's value is destinationInstancesForEntityMappingNamed:sourceInstances:)")
            }
            return values.object
        }
        guard let index = destination.mapping.relationshipIndex(of: name) else {
            throw FetchError.unknownKeyPath(entity: destination.entity.name, keyPath: name, key: name)
        }
        let relationship = destination.mapping.relationships[index].relationship
        if relationship.isToMany {
            try destination.setObjects(objects, forKey: name)
        } else {
            // A to-one takes the one object made (Core Data's array of one).
            try destination.setObject(objects.first, forKey: name)
        }
    }
}

/// An error while migrating one object, with the object named.
private struct MappingObjectError: Error {
    var object: String
    var underlying: any Error
}

/// `$manager` in a value expression: answers the manager's selectors.
private struct ManagerReceiver: SelectorReceiver, @unchecked Sendable {
    /// Unowned: the manager keeps this receiver among its bindings.
    unowned let manager: MappingMigrationManager
    let errors: PredicateReadErrors

    func value(forKey key: String) -> PredicateValue {
        switch key {
        case "currentEntityMapping": manager.currentEntityMapping.map { .string($0.name) } ?? .null
        default: .null
        }
    }

    func perform(_ selector: String, _ arguments: [PredicateValue]) throws -> PredicateValue? {
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            guard arguments.count == 2, let name = arguments[0].stringValue else { return nil }
            return wrap(try manager.destinationInstances(forEntityMappingName: name, sourceInstances: objects(arguments[1])))
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            guard arguments.count == 2, let name = arguments[0].stringValue else { return nil }
            return wrap(try manager.destinationInstances(forSourceRelationshipNamed: name, sourceInstances: objects(arguments[1])))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            guard arguments.count == 2, let name = arguments[0].stringValue else { return nil }
            return wrap(try manager.sourceInstances(forEntityMappingName: name, destinationInstances: objects(arguments[1])))
        default:
            throw PredicateEvaluationError(
                "$manager has no method \(selector) (a mapping model's value expressions may send it destinationInstancesForEntityMappingNamed:sourceInstances:, "
                    + "destinationInstancesForSourceRelationshipNamed:sourceInstances: and sourceInstancesForEntityMappingNamed:destinationInstances:)")
        }
    }

    private func objects(_ value: PredicateValue) throws -> [ManagedObject] {
        let elements: [PredicateValue] = value.isNull ? [] : value.collectionElements ?? [value]
        return try elements.map { element in
            guard case .object(let source) = element, let values = source as? ManagedObjectValues else {
                throw PredicateEvaluationError("the manager takes objects, not \(ValueComparison.kind(of: element))")
            }
            return values.object
        }
    }

    private func wrap(_ objects: [ManagedObject]) -> PredicateValue {
        .array(objects.map { .object(ManagedObjectValues(object: $0, errors: errors)) })
    }
}

/// `$entityPolicy` in a value expression: the current mapping's policy's functions.
private struct PolicyReceiver: SelectorReceiver, @unchecked Sendable {
    let policy: EntityMigrationPolicy
    /// Unowned: the manager keeps this receiver among its prepared bindings.
    unowned let manager: MappingMigrationManager

    func value(forKey key: String) -> PredicateValue { .null }

    func perform(_ selector: String, _ arguments: [PredicateValue]) throws -> PredicateValue? {
        try policy.perform(function: selector, arguments: arguments, manager: manager)
    }
}
