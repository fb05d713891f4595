// A context and its objects belong to the isolation domain (task or actor) that made them:
// they are not Sendable, and these declarations say so for good, so that no extension can
// claim otherwise and the compiler refuses to hand them to another domain. What crosses is
// an ObjectID (Sendable); see PersistentContainer.

@available(*, unavailable, message: "a context belongs to one task or actor; pass ObjectIDs between contexts")
extension ManagedObjectContext: Sendable {}

@available(*, unavailable, message: "a managed object belongs to its context's task or actor; pass its objectID")
extension ManagedObject: Sendable {}
