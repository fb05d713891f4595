/// Fetched properties (``FetchedPropertyDescription``), evaluated when read, as Core Data
/// evaluates them:
///
/// - The value is an array of the fetched entity's objects (sub-entities included) that
///   match the predicate, in the fetch request's order (the store's order when it has
///   none), cut to its limit: ``ManagedObject/objects(forKey:)`` and
///   ``ManagedObject/objectIDs(forKey:)`` read it, and so do key paths
///   (``ManagedObject/predicateValue(forKeyPath:)``, a predicate evaluated on the object).
/// - `$FETCH_SOURCE` is the object read, `$FETCHED_PROPERTY` the property's description
///   (`name`, `userInfo`). The request is compiled to SQL as any fetch: a key path from
///   `$FETCH_SOURCE` is read once, in this context, and bound (see ``ObjectConstantResolution``).
/// - Unsaved changes count, as they do in a fetch (``FetchRequest/includesPendingChanges``).
/// - It is fetched on first read, then kept: it does not follow later changes of the
///   fetched objects, until the object is refreshed (``ManagedObjectContext/refresh(_:mergeChanges:)``,
///   ``ManagedObjectContext/reload(_:)``, a merge of another context's save that refreshes
///   it) or its context is reset.
/// - It is not stored, has no change to save and cannot be set: writes are
///   ``FetchedPropertyError/readOnly(entity:key:)``.
///
/// ```swift
/// // BookCategory.bargainBooks: Book where price < 12 AND category == $FETCH_SOURCE
/// let bargains = try fiction.objects(forKey: "bargainBooks")     // [ManagedObject], fetched now
/// try fiction.objects(forKey: "bargainBooks")                    // the same array, kept
/// try context.refresh(fiction, mergeChanges: true)               // fetched again when next read
/// ```
extension ManagedObject {
    /// The fetched property `key`, when the entity has no attribute or relationship of that
    /// name (a model does not let them share one).
    func fetchedPropertyUnlessStored(_ key: String) -> FetchedPropertyDescription? {
        guard mapping.relationshipIndex(of: key) == nil, mapping.attributeIndex(of: key) == nil else { return nil }
        return fetchedProperty(named: key)
    }

    /// The fetched property `key`, declared by the object's entity or inherited.
    func fetchedProperty(named key: String) -> FetchedPropertyDescription? {
        guard let model = managedObjectContext?.store.model else { return entity.fetchedProperty(named: key) }
        return model.fetchedProperty(key, of: entity.name)
    }

    /// What reading or writing `key`, no attribute or relationship of the entity, throws.
    func notStoredPropertyError(_ key: String, writing: Bool) -> any Error {
        guard fetchedProperty(named: key) != nil else { return StoreError.unknownKey(entity: entity.name, key: key) }
        return writing ? FetchedPropertyError.readOnly(entity: entity.name, key: key) : FetchedPropertyError.notASingleValue(entity: entity.name, key: key)
    }

    /// A fetched property's results: the ones kept, or fetched now and kept.
    func fetchedObjects(_ property: FetchedPropertyDescription) throws -> [ManagedObject] {
        if let kept = fetchedResults[property.name] { return kept }
        guard let context = managedObjectContext else {
            throw StoreError.objectNotFound("\(objectID) (no longer in a context, so \(property.name) cannot be fetched)")
        }
        let results = try context.fetchResults(of: property, for: self)
        // Kept only while the object is in the context that fetched them.
        if managedObjectContext === context { fetchedResults[property.name] = results }
        return results
    }
}

extension ManagedObjectContext {
    /// Runs a fetched property's fetch request for `source`.
    func fetchResults(of property: FetchedPropertyDescription, for source: ManagedObject) throws -> [ManagedObject] {
        let request = try fetchRequest(of: property, for: source)
        do {
            return Array(try fetch(request))
        } catch let error as FetchError {
            throw FetchedPropertyError.fetchFailed(entity: source.entity.name, key: property.name, reason: error.description)
        } catch let error as PredicateEvaluationError where error != .interrupted {
            throw FetchedPropertyError.fetchFailed(entity: source.entity.name, key: property.name, reason: error.description)
        }
    }

    /// A fetched property's fetch request for `source`: its entity, its predicate with
    /// `$FETCH_SOURCE` and `$FETCHED_PROPERTY` bound, its order and limit.
    func fetchRequest(of property: FetchedPropertyDescription, for source: ManagedObject) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: property.entity)
        request.sortKeys = property.sortKeys
        request.fetchLimit = property.fetchLimit
        guard let text = property.predicate else { return request }
        let predicate: ObjectPredicate
        do {
            predicate = try ObjectPredicate(format: text)
        } catch {
            throw FetchedPropertyError.invalidPredicate(entity: source.entity.name, key: property.name, predicate: text, reason: "\(error)")
        }
        request.predicate = predicate.withSubstitutionVariables([
            "FETCH_SOURCE": source.predicateValue, "FETCHED_PROPERTY": property.predicateValue,
        ])
        return request
    }
}

extension FetchedPropertyDescription {
    /// `$FETCHED_PROPERTY`: the description as its predicate reads it (`name`, `userInfo`).
    var predicateValue: PredicateValue {
        .dictionary(["name": .string(name), "userInfo": .dictionary(userInfo.mapValues(PredicateValue.string))])
    }
}
