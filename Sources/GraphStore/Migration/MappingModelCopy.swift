/// A mapping model that only copies values, run with SQL as an inferred step is.
///
/// Core Data runs every mapping model object by object. Most mapping models Xcode makes only
/// copy, with some renames: each entity mapping has the default policy and no filter, and
/// each property's value is the source object's own attribute (`$source.title`) or the
/// objects another mapping made from a relationship's destinations
/// (`FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:",
/// "AuthorToAuthor", $source.author)`), the expressions Xcode writes when it matches
/// properties by name. Such a step gives the store the object-by-object run gives (each
/// object keeps its key, where that run numbers the objects afresh), so GraphStore runs it
/// as one `INSERT … SELECT` per entity (``StoreCopyPlan``), and runs any other mapping
/// model object by object (``MappingMigrationManager``); ``reason`` says why.
///
/// ```swift
/// let copy = MappingModelCopy(mappingModel, source: v1, destination: v2)
/// copy.plan      // the SQL copy, or nil
/// copy.reason    // "WordToWord: spelling = $source.text.uppercaseString is not …"
/// ```
struct MappingModelCopy {
    /// The store copy that gives the mapping model's result, or nil when it must run
    /// object by object.
    private(set) var plan: StoreCopyPlan?
    /// Why the mapping model runs object by object (nil when ``plan`` is set).
    private(set) var reason: String?

    init(_ mappingModel: MappingModel, source: ManagedObjectModel, destination: ManagedObjectModel) {
        do throws(Refusal) {
            plan = try Compiler(mappingModel: mappingModel, source: source, destination: destination).plan()
        } catch {
            reason = error.reason
        }
    }

    private struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// What a property mapping's value is, when it is one the copy carries.
    private enum Value {
        /// `$source.<attribute>`.
        case sourceAttribute(String)
        /// The objects a mapping (nil: any mapping) made from `$source.<relationship>`.
        case destinations(mapping: String?, relationship: String)
    }

    private struct Compiler {
        let mappingModel: MappingModel
        let source: ManagedObjectModel
        let destination: ManagedObjectModel

        /// The mappings that make objects: a source and a destination entity.
        var running: [MappingModel.EntityMapping] {
            mappingModel.entityMappings.filter { $0.kind != .remove && $0.sourceEntity != nil && $0.destinationEntity != nil }
        }

        func plan() throws(Refusal) -> StoreCopyPlan {
            let running = self.running
            try checkOneToOne(running)
            var entities: [StoreCopyPlan.Entity] = []
            for mapping in running {
                entities.append(try entity(mapping, among: running))
            }
            try completeInverses(&entities)
            return StoreCopyPlan(entities: entities, carriesFrameworkTables: false)
        }

        /// Each source entity makes objects of one destination entity, each destination
        /// entity takes objects from one source entity, and the sources of one destination
        /// table share a table (their keys stay unique).
        private func checkOneToOne(_ running: [MappingModel.EntityMapping]) throws(Refusal) {
            var bySource: [String: String] = [:]
            var byDestination: [String: String] = [:]
            var sourceTableOf: [String: String] = [:]
            for mapping in running {
                guard let from = mapping.sourceEntity, let to = mapping.destinationEntity else { continue }
                if let other = bySource[from] { throw Refusal("\(other) and \(mapping.name) both make objects from \(from)") }
                if let other = byDestination[to] { throw Refusal("\(other) and \(mapping.name) both make \(to) objects") }
                bySource[from] = mapping.name
                byDestination[to] = mapping.name
                guard let sourceRoot = source.root(of: from)?.name, let destinationRoot = destination.root(of: to)?.name else {
                    throw Refusal("\(mapping.name): \(source.entity(named: from) == nil ? from : to) is not in the model")
                }
                if let other = sourceTableOf[destinationRoot], other != sourceRoot {
                    throw Refusal("\(destinationRoot)'s table takes objects of \(other) and of \(sourceRoot), whose keys may meet")
                }
                sourceTableOf[destinationRoot] = sourceRoot
            }
        }

        private func entity(_ mapping: MappingModel.EntityMapping, among running: [MappingModel.EntityMapping]) throws(Refusal) -> StoreCopyPlan.Entity {
            guard let from = mapping.sourceEntity, let to = mapping.destinationEntity else { throw Refusal("\(mapping.name) has no entities") }
            if let policy = mapping.policyClassName, !MigrationPolicies.isDefault(policy) {
                throw Refusal("\(mapping.name) has the policy \(policy)")
            }
            if let filter = mapping.sourceFilter, filter != "TRUEPREDICATE" {
                throw Refusal("\(mapping.name) takes only the objects where \(filter)")
            }
            var entity = StoreCopyPlan.Entity(name: to, source: from, attributes: [:], relationships: [:])
            // What the mapping does not set keeps what a new object starts with.
            for attribute in destination.attributes(of: to) where !attribute.isTransient {
                if attribute.allowsExternalBinaryDataStorage {
                    throw Refusal("\(to).\(attribute.name) may be stored outside the database")
                }
                entity.attributes[attribute.name] = StoreCopyPlan.AttributeSource(source: nil, fill: attribute.defaultValue)
            }
            for property in mapping.attributeMappings {
                guard let target = destination.attribute(property.name, of: to), !target.isTransient else { continue }
                let text = mappingModel.valueExpression(of: property, in: mapping).expression
                guard let text else { continue }
                guard case .sourceAttribute(let name)? = value(text),
                    let old = source.attribute(name, of: from), !old.isTransient
                else {
                    throw Refusal("\(mapping.name): \(property.name) = \(text) is not an attribute of the source object")
                }
                guard old.type == target.type, !old.allowsExternalBinaryDataStorage else {
                    throw Refusal("\(mapping.name): \(property.name) = \(text) changes the value's type or storage")
                }
                entity.attributes[property.name] = StoreCopyPlan.AttributeSource(source: name, fill: nil)
            }
            for property in mapping.relationshipMappings {
                guard let target = destination.relationship(property.name, of: to), !target.isTransient else { continue }
                let text = mappingModel.valueExpression(of: property, in: mapping).expression
                guard let text else { continue }
                entity.relationships[property.name] = try relationshipSource(text, of: mapping, target: target, among: running)
            }
            return entity
        }

        /// The source relationship whose links a relationship mapping copies: its value
        /// must be the destinations of every object `$source.<relationship>` holds, of the
        /// same cardinality, each made by a mapping that makes a kind of the target's
        /// destination entity.
        private func relationshipSource(
            _ text: String, of mapping: MappingModel.EntityMapping, target: RelationshipDescription, among running: [MappingModel.EntityMapping]
        ) throws(Refusal) -> String {
            let place = "\(mapping.name): \(target.name) = \(text)"
            guard let from = mapping.sourceEntity, case .destinations(let maker, let name)? = value(text),
                let old = source.relationship(name, of: from), !old.isTransient
            else {
                throw Refusal("\(place) is not the destinations of a relationship of the source object")
            }
            guard old.isToMany == target.isToMany else { throw Refusal("\(place) changes a to-one into a to-many or back") }
            guard RelationshipStorageKind.of(old, in: source) != .notStored, RelationshipStorageKind.of(target, in: destination) != .notStored else {
                throw Refusal("\(place): a to-many without an inverse is not stored in a way GraphStore reads")
            }
            // The objects the relationship can hold, and the mappings that make theirs.
            for entity in source.selfAndDescendants(of: old.destination).map(\.name) {
                let makers = running.filter { $0.sourceEntity == entity && (maker == nil || $0.name == maker) }
                guard let made = makers.first?.destinationEntity else {
                    throw Refusal("\(place): no mapping \(maker.map { "named \($0) " } ?? "")makes objects from \(entity), so its links are dropped")
                }
                guard destination.isKind(made, of: target.destination) else {
                    throw Refusal("\(place): \(made) is not a kind of \(target.destination)")
                }
            }
            return name
        }

        /// The object-by-object run sets a relationship's inverse along with it, so where a
        /// mapping sets one side of a destination relationship, the other side takes its
        /// links from the source relationship's inverse; where both sides are set, they must
        /// be one source relationship seen from its two ends.
        private func completeInverses(_ entities: inout [StoreCopyPlan.Entity]) throws(Refusal) {
            for index in entities.indices {
                for (name, sourceName) in entities[index].relationships.sorted(by: { $0.key < $1.key }) {
                    let entity = entities[index]
                    guard let relationship = destination.relationship(name, of: entity.name), let inverse = relationship.inverse,
                        let sourceRelationship = source.relationship(sourceName, of: entity.source)
                    else { continue }
                    for other in entities.indices where destination.relationship(inverse, of: entities[other].name) != nil
                        && destination.isKind(entities[other].name, of: relationship.destination) {
                        let place = "\(entity.name).\(name) and \(entities[other].name).\(inverse)"
                        guard let sourceInverse = sourceRelationship.inverse,
                            source.relationship(sourceInverse, of: entities[other].source) != nil
                        else {
                            throw Refusal("\(place) are each other's inverse, but \(entity.source).\(sourceName) has no inverse in \(entities[other].source)")
                        }
                        switch entities[other].relationships[inverse] {
                        case nil: entities[other].relationships[inverse] = sourceInverse
                        case sourceInverse?: break
                        case let taken?:
                            throw Refusal("\(place) take their links from \(sourceName) and \(taken), which are not each other's inverse")
                        }
                    }
                }
            }
        }

        /// What a value expression is, when it is one the copy carries.
        private func value(_ text: String) -> Value? {
            guard let expression = try? ObjectExpression(format: text) else { return nil }
            switch expression {
            case .member(.variable("source"), let path) where path.count == 1:
                return .sourceAttribute(path[0])
            case .selector(receiver: .variable("manager"), let selector, let arguments) where arguments.count == 2:
                guard case .member(.variable("source"), let path) = arguments[1], path.count == 1 else { return nil }
                guard case .constant(let name) = arguments[0], let mapping = name.stringValue else { return nil }
                switch selector {
                case "destinationInstancesForEntityMappingNamed:sourceInstances:":
                    return .destinations(mapping: mapping, relationship: path[0])
                case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
                    return .destinations(mapping: nil, relationship: path[0])
                default:
                    return nil
                }
            default:
                return nil
            }
        }
    }
}
