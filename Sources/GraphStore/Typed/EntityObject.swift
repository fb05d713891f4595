/// A class that represents one entity of the model, with typed properties: what
/// `graphstore codegen` generates, and what typed fetches (``FetchRequest``), `#Predicate`
/// and ``PersistentContainer`` work with.
///
/// ```swift
/// public final class Book: ManagedObject, EntityObject {
///     public class var entityName: String { "Book" }
///     public class var relatedClasses: [any EntityObject.Type] { [BookCategory.self, Page.self] }
///     private static let propertyNames: PropertyNames<Book> = [\.title: "title", \.category: "category"]
///     public class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }
///
///     @Attribute("title") public var title: String?
///     @Relationship("category") public var category: BookCategory?
/// }
/// let book = Book(context: context)      // inserted, as Core Data's init(context:)
/// ```
///
/// A context makes objects of the entity (and of sub-entities without a class of their own)
/// instances of the class once the class is registered with it, which the typed API does
/// by itself: inserting with ``init(context:)``, a typed fetch, or
/// ``ManagedObjectContext/register(_:)``, each registering the class with every class it is
/// related to (``relatedClasses``), so that relationships hand out typed objects too. An
/// object made by an untyped fetch before its class was registered stays a plain
/// ``ManagedObject``; a typed property meeting one keeps a
/// ``TypedObjectError/classMismatch(object:expected:found:)``.
public protocol EntityObject: ManagedObject {
    /// The entity the class represents (defaults to the class's name).
    static var entityName: String { get }
    /// The model name of a property by its key path (`\Book.title` → `"title"`), or of a
    /// to-one's destination attribute read through the optional (`\Book.category?.name` →
    /// `"category.name"`), for `#Predicate` and `SortDescriptor`; nil for a key path that is
    /// no model property.
    static func propertyName(for keyPath: AnyKeyPath) -> String?
    /// The classes of the entities this one's relationships lead to, and of its parent and
    /// sub-entities: registered with it, so that every object reached is typed.
    static var relatedClasses: [any EntityObject.Type] { get }
}

extension EntityObject {
    public static var entityName: String { String(describing: Self.self) }
    public static var relatedClasses: [any EntityObject.Type] { [] }

    /// Inserts a new object of the class's entity into `context`, as Core Data's
    /// `init(context:)` does: with its default values, `awakeFromInsert` called, saved with the
    /// context's next save. Registers the class (and its related classes) with the context.
    ///
    /// It cannot throw: if the store's model has no such entity, or it is abstract, or an
    /// undo manager refuses the insert, the object is made outside any context (its
    /// properties read empty and it is never saved) and the error is kept by the context (see
    /// ``AccessError``), so that the next save throws it.
    public init(context: ManagedObjectContext) {
        context.register(Self.self)
        do {
            let mapping = try context.insertableMapping(Self.entityName)
            self.init(objectID: context.newTemporaryID(for: mapping), context: context)
            do {
                try context.completeInsertion(self)
            } catch {
                managedObjectContext = nil
                context.accessErrorLog.append(AccessError(objectID: objectID, key: "(insert)", underlying: error))
            }
        } catch {
            let placeholder = EntityMapping.placeholder(Self.entityName, storeUUID: context.store.uuid)
            self.init(objectID: context.newTemporaryID(for: placeholder), context: context)
            managedObjectContext = nil
            context.accessErrorLog.append(AccessError(objectID: objectID, key: "(insert)", underlying: error))
        }
    }
}

extension ManagedObjectContext {
    /// Makes objects of the class's entity instances of the class, and the same for every
    /// class it is related to (``EntityObject/relatedClasses``), transitively. The typed API
    /// calls it; call it before an untyped fetch whose objects typed code will read.
    ///
    /// ```swift
    /// context.register(Book.self)      // Book, BookCategory, Page
    /// ```
    public func register(_ type: any EntityObject.Type) {
        guard !registeredEntityClasses.contains(ObjectIdentifier(type)) else { return }
        var pending: [any EntityObject.Type] = [type]
        while let next = pending.popLast() {
            guard registeredEntityClasses.insert(ObjectIdentifier(next)).inserted else { continue }
            // An entity the store's model lacks is reported where it is used (an insert, a
            // fetch); a class alone registers nothing.
            if (try? store.mapping(for: next.entityName)) != nil { register(next, forEntity: next.entityName) }
            pending += next.relatedClasses
        }
    }
}
