import Foundation

/// What a ``FetchedResultsController`` tells as its results change
/// (`NSFetchedResultsControllerDelegate`). Every method has an empty default: implement
/// the change-by-change ones for a table view, or only
/// `controller(_:didChangeContentWith:)` for a diffable data source.
///
/// ```swift
/// final class BooksDataSource: FetchedResultsControllerDelegate {
///     func controller<R>(_ controller: FetchedResultsController<R>, didChange object: ManagedObject, at indexPath: IndexPath?,
///                        for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
///         switch type {
///         case .insert: tableView.insertRows(at: [newIndexPath!])
///         …
///         }
///     }
/// }
/// ```
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Before the changes of one event.
    func controllerWillChangeContent<R>(_ controller: FetchedResultsController<R>)
    /// A section came or went.
    func controller<R>(_ controller: FetchedResultsController<R>, didChange sectionInfo: FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// An object came, went, moved or changed: `indexPath` is its old place (deletes,
    /// moves, updates), `newIndexPath` its new one (inserts, moves).
    func controller<R>(_ controller: FetchedResultsController<R>, didChange object: ManagedObject, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// After the changes of one event.
    func controllerDidChangeContent<R>(_ controller: FetchedResultsController<R>)
    /// The results after a change, as sections of object IDs.
    func controller<R>(_ controller: FetchedResultsController<R>, didChangeContentWith snapshot: FetchedResultsSnapshot)
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent<R>(_ controller: FetchedResultsController<R>) {}
    /// Does nothing.
    public func controller<R>(_ controller: FetchedResultsController<R>, didChange sectionInfo: FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    /// Does nothing.
    public func controller<R>(_ controller: FetchedResultsController<R>, didChange object: ManagedObject, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    /// Does nothing.
    public func controllerDidChangeContent<R>(_ controller: FetchedResultsController<R>) {}
    /// Does nothing.
    public func controller<R>(_ controller: FetchedResultsController<R>, didChangeContentWith snapshot: FetchedResultsSnapshot) {}
}
