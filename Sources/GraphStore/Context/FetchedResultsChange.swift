import Foundation

/// How an object or section changed, with Core Data's numbers
/// (`NSFetchedResultsChangeType`).
public enum FetchedResultsChangeType: UInt, Sendable, Hashable {
    case insert = 1
    case delete = 2
    /// An object's sort or section value changed and it has a new place (objects that only
    /// shift because others came or went are not reported, as in Core Data).
    case move = 3
    /// An object's values changed; it stays where it was.
    case update = 4
}

/// One section of a ``FetchedResultsController``'s results (`NSFetchedResultsSectionInfo`).
public struct FetchedResultsSectionInfo: Sendable, Hashable {
    /// The section key path's value for the section's objects, as text ("" for none).
    public var name: String
    /// The section's index title (by default the name's first letter, capitalized).
    public var indexTitle: String?
    /// How many objects the section holds.
    public var numberOfObjects: Int
    /// The section's objects, by ID, in order.
    public var objectIDs: [ObjectID]
}

/// The results as a diffable data source wants them: sections by name, each with its
/// objects' IDs in order (`NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`).
public struct FetchedResultsSnapshot: Sendable, Hashable {
    /// The sections, in order.
    public var sections: [Section]

    /// One section.
    public struct Section: Sendable, Hashable {
        /// The section's name.
        public var name: String
        /// Its objects' IDs, in order.
        public var objectIDs: [ObjectID]
    }

    /// Every object's ID, section after section.
    public var objectIDs: [ObjectID] { sections.flatMap(\.objectIDs) }
}

#if os(Linux)
extension IndexPath {
    /// A path to an item in a section, as a table or collection view uses it (UIKit and
    /// AppKit give `IndexPath` this on Apple platforms).
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The section (the first index).
    public var section: Int { self[0] }
    /// The item within the section (the second index).
    public var item: Int { self[1] }
}
#endif
