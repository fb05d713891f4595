import Foundation

// Core Data's names for managed objects and their IDs, declared unavailable so that a
// port's compile errors say what to write on GraphStore (see CoreDataStack.swift).

#if !canImport(CoreData)

/// Core Data's `NSManagedObject`: on GraphStore, ``ManagedObject``.
@available(*, unavailable, renamed: "ManagedObject")
public typealias NSManagedObject = ManagedObject

/// Core Data's `NSManagedObjectID`: on GraphStore, ``ObjectID`` (a `Sendable` value).
@available(*, unavailable, renamed: "ObjectID")
public typealias NSManagedObjectID = ObjectID

/// Core Data's `NSFetchRequestResult`: GraphStore's requests and controllers are generic
/// over ``ManagedObject`` or a generated class, and its delegates' methods are generic.
@available(*, unavailable, message: "results are ManagedObject or a generated class on GraphStore: FetchRequest<ManagedObject>, FetchedResultsController<Book>")
public typealias NSFetchRequestResult = ManagedObject

/// Foundation's `NSSecureUnarchiveFromDataTransformer`, the default transformer of a
/// Transformable attribute: on GraphStore, ``SecureUnarchiveFromDataTransformer``, registered
/// under the same name (`NSSecureUnarchiveFromData`).
@available(*, unavailable, renamed: "SecureUnarchiveFromDataTransformer")
public typealias NSSecureUnarchiveFromDataTransformer = SecureUnarchiveFromDataTransformer

/// Foundation's `UndoManager`, which Foundation on Linux does not have: a context's undo
/// manager is a ``ContextUndoManager``.
@available(*, unavailable, renamed: "ContextUndoManager")
public typealias UndoManager = ContextUndoManager

extension ManagedObjectContext {
    /// Core Data's `object(with:)`.
    @available(*, unavailable, renamed: "object(for:)")
    public func object(with objectID: ObjectID) throws -> ManagedObject {
        try object(for: objectID)
    }

    /// Core Data's `existingObject(with:)`: the object, read from the store if need be,
    /// or an error if its row is gone.
    @available(*, unavailable, message: "write try context.object(for: id) and fireFault() it, which throws when its row is gone (existingObject(uri:) for a URI)")
    public func existingObject(with objectID: ObjectID) throws -> ManagedObject {
        let object = try object(for: objectID)
        try object.fireFault()
        return object
    }
}

extension ObjectID {
    /// Core Data's `uriRepresentation()`, a URL: on GraphStore a property, the URI's text.
    @available(*, unavailable, message: "uriRepresentation is a property on GraphStore, the URI's text: objectID.uriRepresentation")
    public func uriRepresentation(_ unused: Void = ()) -> URL? {
        URL(string: uriRepresentation)
    }

    /// Core Data's `isTemporaryID`.
    @available(*, unavailable, renamed: "isTemporary")
    public var isTemporaryID: Bool { isTemporary }
}

extension ManagedObject {
    /// Core Data's `primitiveValue(forKey:)`: reading never records a change on GraphStore,
    /// so the primitive read is the keyed read.
    @available(*, unavailable, renamed: "value(forKey:)")
    public func primitiveValue(forKey key: String) throws -> AttributeValue? {
        try value(forKey: key)
    }

    /// Core Data's `willChangeValue(forKey:)`, which a hand-written setter calls before
    /// `setPrimitiveValue`: GraphStore's ``setValue(_:forKey:)`` records the change itself.
    ///
    /// There is nothing to forward to: the change is announced by the write.
    @available(*, unavailable, message: "setValue(_:forKey:) (or set(_:_:)) records the change on GraphStore: write the value with it instead of setPrimitiveValue between willChangeValue and didChangeValue")
    public func willChangeValue(forKey key: String) {}

    /// Core Data's `didChangeValue(forKey:)`: see ``willChangeValue(forKey:)``.
    @available(*, unavailable, message: "setValue(_:forKey:) (or set(_:_:)) records the change on GraphStore: write the value with it instead of setPrimitiveValue between willChangeValue and didChangeValue")
    public func didChangeValue(forKey key: String) {}
}

extension EntityObject {
    /// The `fetchRequest()` class method Core Data's code generation writes: a typed
    /// GraphStore request takes its entity from its class.
    @available(*, unavailable, message: "a typed request takes its entity from its class: try FetchRequest<Book>()")
    public static func fetchRequest() throws(PredicateTranslationError) -> FetchRequest<Self> {
        try FetchRequest<Self>()
    }
}

extension EntityDescription {
    /// Core Data's `NSEntityDescription.entity(forName:in:)`: the entity of the context's
    /// model.
    @available(*, unavailable, message: "the context's model has it: context.model.entity(named: name)")
    public static func entity(forName entityName: String, in context: ManagedObjectContext) -> EntityDescription? {
        context.model.entity(named: entityName)
    }

    /// Core Data's `NSEntityDescription.insertNewObject(forEntityName:into:)`.
    @available(*, unavailable, message: "insert through the context: try context.insert(\"Book\"), or Book(context: context) for a generated class")
    public static func insertNewObject(forEntityName entityName: String, into context: ManagedObjectContext) throws -> ManagedObject {
        try context.insert(entityName)
    }
}

#endif
