/// Managed objects are equal when they are the same object, as in Core Data (where
/// `NSManagedObject` compares as an `NSObject`): so that objects can be kept in sets, as
/// to-many properties (`Set<Book>`) hold them. One context holds one object per ID, so two
/// objects of one context are equal exactly when their IDs are.
extension ManagedObject: Hashable {
    public static func == (a: ManagedObject, b: ManagedObject) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
