import Foundation

/// What would stop a mapping model from running on a step, found before anything runs and
/// said by mapping, side and property: Core Data says only "Mismatch between mapping and
/// source/destination models" (134110), after the app has started.
///
/// Checked: each entity mapping's source and destination entities are in the step's
/// versions; each property mapping names a property of the destination entity of its kind;
/// each value expression and filter parses, and the keys it reads from `$source` are the
/// source entity's; each mapping a `destinationInstancesForEntityMappingNamed:` names is
/// in the file; each policy class is registered (``MigrationPolicies``).
///
/// ```swift
/// MappingModelCheck(mappingModel: file.mappingModel, name: "Model2toModel3.xcmappingmodel",
///                   source: v2, destination: v3, policies: policies).refusals
/// ```
struct MappingModelCheck {
    let mappingModel: MappingModel
    let name: String
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    let policies: MigrationPolicies

    var refusals: [MigrationRefusal] {
        var found: [MigrationRefusal] = []
        for mapping in mappingModel.entityMappings {
            found += refusals(of: mapping)
        }
        return found
    }

    private func refusal(_ mapping: MappingModel.EntityMapping, property: String? = nil, _ reason: String) -> MigrationRefusal {
        MigrationRefusal(.migrationFails, entity: "\(name): \(mapping.name)", property: property, reason)
    }

    private func refusals(of mapping: MappingModel.EntityMapping) -> [MigrationRefusal] {
        var found: [MigrationRefusal] = []
        if let policy = mapping.policyClassName, !policy.isEmpty, !policies.contains(policyNamed: policy) {
            let registered = policies.registeredNames
            found.append(refusal(mapping,
                "names the migration policy \(policy), which is not registered (" + (registered.isEmpty ? "none is" : "registered: \(registered.joined(separator: ", "))")
                    + "); a Swift policy is registered with MigrationPolicies, and the shell has none"))
        }
        if let entity = mapping.sourceEntity, source.entity(named: entity) == nil {
            found.append(refusal(mapping, "its source entity \(entity) is not in the source version"))
        }
        if let filter = mapping.sourceFilter, (try? ObjectPredicate(format: filter)) == nil {
            found.append(refusal(mapping, "its filter \(filter) is not a predicate"))
        }
        guard mapping.kind != .remove, let entity = mapping.destinationEntity else { return found }
        guard destination.entity(named: entity) != nil else {
            return found + [refusal(mapping, "its destination entity \(entity) is not in the destination version")]
        }
        let attributes = Set(destination.attributes(of: entity).map(\.name))
        let relationships = Set(destination.relationships(of: entity).map(\.name))
        for property in mapping.attributeMappings where !attributes.contains(property.name) {
            found.append(refusal(mapping, property: property.name, "maps an attribute \(entity) of the destination version does not have"))
        }
        for property in mapping.relationshipMappings where !relationships.contains(property.name) {
            found.append(refusal(mapping, property: property.name, "maps a relationship \(entity) of the destination version does not have"))
        }
        for property in mapping.attributeMappings + mapping.relationshipMappings {
            guard let text = mappingModel.valueExpression(of: property, in: mapping).expression else { continue }
            if let problem = problem(of: text, in: mapping) { found.append(refusal(mapping, property: property.name, problem)) }
        }
        return found
    }

    /// Why a value expression cannot run, or nil.
    private func problem(of text: String, in mapping: MappingModel.EntityMapping) -> String? {
        let expression: ObjectExpression
        do {
            expression = try ObjectExpression(format: text)
        } catch {
            return "its value expression \(text) does not parse: \(error)"
        }
        var problems: [String] = []
        visit(expression) { node in
            switch node {
            case .member(.variable("source"), let path):
                guard let entity = mapping.sourceEntity, let key = path.first, !key.hasPrefix("@") else { return }
                let keys = source.attributes(of: entity).map(\.name) + source.relationships(of: entity).map(\.name)
                if !keys.contains(key) { problems.append("reads $source.\(key), which \(entity) of the source version does not have") }
            case .selector(.variable("manager"), let selector, let arguments):
                if selector == "destinationInstancesForEntityMappingNamed:sourceInstances:" || selector == "sourceInstancesForEntityMappingNamed:destinationInstances:",
                    case .constant(let named) = arguments.first, let name = named.stringValue, mappingModel.entityMapping(named: name) == nil
                {
                    problems.append("names the entity mapping \(name), which the file does not have")
                }
            default:
                break
            }
        }
        return problems.first
    }

    /// Calls `body` with `expression` and each expression inside it.
    private func visit(_ expression: ObjectExpression, _ body: (ObjectExpression) -> Void) {
        body(expression)
        switch expression {
        case .member(let base, _), .index(let base, _), .unary(_, let base), .cast(let base, _):
            visit(base, body)
        case .arithmetic(_, let left, let right):
            visit(left, body)
            visit(right, body)
        case .aggregate(let elements), .function(_, let elements):
            for element in elements { visit(element, body) }
        case .selector(let receiver, _, let arguments):
            visit(receiver, body)
            for argument in arguments { visit(argument, body) }
        case .subquery(let collection, _, _):
            visit(collection, body)
        case .constant, .evaluatedObject, .keyPath, .variable, .anyKey:
            break
        }
    }
}
