import Foundation

// Core Data's names for saves and what follows them (conflicts, notifications, batch
// requests, persistent history), declared unavailable so that a port's compile errors say
// what to write on GraphStore (see CoreDataStack.swift).

#if !canImport(CoreData)

/// Core Data's `NSMergeConflict`: on GraphStore, ``MergeConflict``, as a ``MergePolicy`` is
/// handed it (a failed save throws its ``SaveConflict`` in
/// ``StoreError/optimisticLockingFailure(_:)``, 133020).
@available(*, unavailable, renamed: "MergeConflict")
public typealias NSMergeConflict = MergeConflict

extension ManagedObjectContext {
    /// Core Data's `NSManagedObjectContext.didChangeObjectsNotification`.
    @available(*, unavailable, renamed: "objectsDidChangeNotification")
    public static var didChangeObjectsNotification: Notification.Name { objectsDidChangeNotification }
}

extension Notification.Name {
    /// Core Data's `Notification.Name.NSManagedObjectContextObjectsDidChange`.
    @available(*, unavailable, renamed: "ManagedObjectContext.objectsDidChangeNotification")
    public static var NSManagedObjectContextObjectsDidChange: Notification.Name { ManagedObjectContext.objectsDidChangeNotification }

    /// Core Data's `Notification.Name.NSManagedObjectContextWillSave`.
    @available(*, unavailable, renamed: "ManagedObjectContext.willSaveObjectsNotification")
    public static var NSManagedObjectContextWillSave: Notification.Name { ManagedObjectContext.willSaveObjectsNotification }

    /// Core Data's `Notification.Name.NSManagedObjectContextDidSave`.
    @available(*, unavailable, renamed: "ManagedObjectContext.didSaveObjectsNotification")
    public static var NSManagedObjectContextDidSave: Notification.Name { ManagedObjectContext.didSaveObjectsNotification }
}

/// Core Data's `NSInsertedObjectsKey`.
@available(*, unavailable, renamed: "ContextNotificationKey.inserted")
public var NSInsertedObjectsKey: String { ContextNotificationKey.inserted }

/// Core Data's `NSUpdatedObjectsKey`.
@available(*, unavailable, renamed: "ContextNotificationKey.updated")
public var NSUpdatedObjectsKey: String { ContextNotificationKey.updated }

/// Core Data's `NSDeletedObjectsKey`.
@available(*, unavailable, renamed: "ContextNotificationKey.deleted")
public var NSDeletedObjectsKey: String { ContextNotificationKey.deleted }

/// Core Data's `NSRefreshedObjectsKey`.
@available(*, unavailable, renamed: "ContextNotificationKey.refreshed")
public var NSRefreshedObjectsKey: String { ContextNotificationKey.refreshed }

/// Core Data's `NSInvalidatedAllObjectsKey`.
@available(*, unavailable, renamed: "ContextNotificationKey.invalidatedAll")
public var NSInvalidatedAllObjectsKey: String { ContextNotificationKey.invalidatedAll }

/// Core Data's `NSValidationObjectErrorKey`.
@available(*, unavailable, renamed: "CoreDataErrorKey.validationObject")
public var NSValidationObjectErrorKey: String { CoreDataErrorKey.validationObject }

/// Core Data's `NSValidationKeyErrorKey`.
@available(*, unavailable, renamed: "CoreDataErrorKey.validationKey")
public var NSValidationKeyErrorKey: String { CoreDataErrorKey.validationKey }

/// Core Data's `NSValidationValueErrorKey`.
@available(*, unavailable, renamed: "CoreDataErrorKey.validationValue")
public var NSValidationValueErrorKey: String { CoreDataErrorKey.validationValue }

/// Core Data's `NSDetailedErrorsKey`.
@available(*, unavailable, renamed: "CoreDataErrorKey.detailedErrors")
public var NSDetailedErrorsKey: String { CoreDataErrorKey.detailedErrors }

/// Core Data's `NSPersistentStoreSaveConflictsErrorKey`.
@available(*, unavailable, renamed: "CoreDataErrorKey.saveConflicts")
public var NSPersistentStoreSaveConflictsErrorKey: String { CoreDataErrorKey.saveConflicts }

/// Core Data's `NSBatchDeleteRequest`: on GraphStore, ``BatchDeleteRequest``.
@available(*, unavailable, renamed: "BatchDeleteRequest")
public typealias NSBatchDeleteRequest = BatchDeleteRequest

/// Core Data's `NSBatchUpdateRequest`: on GraphStore, ``BatchUpdateRequest``.
@available(*, unavailable, renamed: "BatchUpdateRequest")
public typealias NSBatchUpdateRequest = BatchUpdateRequest

/// Core Data's `NSBatchInsertRequest`: on GraphStore, ``BatchInsertRequest``.
@available(*, unavailable, renamed: "BatchInsertRequest")
public typealias NSBatchInsertRequest = BatchInsertRequest

/// Core Data's `NSBatchDeleteResult`: on GraphStore, every batch request returns a
/// ``BatchResult``.
@available(*, unavailable, renamed: "BatchResult")
public typealias NSBatchDeleteResult = BatchResult

/// Core Data's `NSBatchUpdateResult`: on GraphStore, ``BatchResult``.
@available(*, unavailable, renamed: "BatchResult")
public typealias NSBatchUpdateResult = BatchResult

/// Core Data's `NSBatchInsertResult`: on GraphStore, ``BatchResult``.
@available(*, unavailable, renamed: "BatchResult")
public typealias NSBatchInsertResult = BatchResult

/// Core Data's `NSBatchDeleteRequestResultType`: on GraphStore, one ``BatchResultType``
/// for the three batch requests.
@available(*, unavailable, renamed: "BatchResultType")
public typealias NSBatchDeleteRequestResultType = BatchResultType

/// Core Data's `NSBatchUpdateRequestResultType`: on GraphStore, ``BatchResultType``.
@available(*, unavailable, renamed: "BatchResultType")
public typealias NSBatchUpdateRequestResultType = BatchResultType

/// Core Data's `NSBatchInsertRequestResultType`: on GraphStore, ``BatchResultType``.
@available(*, unavailable, renamed: "BatchResultType")
public typealias NSBatchInsertRequestResultType = BatchResultType

extension BatchResultType {
    /// Core Data's `NSBatchDeleteRequestResultType.resultTypeStatusOnly`.
    @available(*, unavailable, renamed: "statusOnly")
    public static var resultTypeStatusOnly: BatchResultType { .statusOnly }
    /// Core Data's `NSBatchDeleteRequestResultType.resultTypeObjectIDs`.
    @available(*, unavailable, renamed: "objectIDs")
    public static var resultTypeObjectIDs: BatchResultType { .objectIDs }
    /// Core Data's `NSBatchDeleteRequestResultType.resultTypeCount`.
    @available(*, unavailable, renamed: "count")
    public static var resultTypeCount: BatchResultType { .count }
    /// Core Data's `NSBatchUpdateRequestResultType.statusOnlyResultType`.
    @available(*, unavailable, renamed: "statusOnly")
    public static var statusOnlyResultType: BatchResultType { .statusOnly }
    /// Core Data's `NSBatchUpdateRequestResultType.updatedObjectIDsResultType`.
    @available(*, unavailable, renamed: "objectIDs")
    public static var updatedObjectIDsResultType: BatchResultType { .objectIDs }
    /// Core Data's `NSBatchUpdateRequestResultType.updatedObjectsCountResultType`.
    @available(*, unavailable, renamed: "count")
    public static var updatedObjectsCountResultType: BatchResultType { .count }
}

extension BatchResult {
    /// Core Data's `result` (an `Any?` to cast): GraphStore's result has typed fields.
    @available(*, unavailable, message: "a batch result has typed fields on GraphStore: result.objectIDs, result.count, result.changes (for mergeChanges)")
    public var result: Any? {
        switch resultType {
        case .statusOnly: true
        case .count: count
        case .objectIDs: objectIDs
        }
    }
}

/// Core Data's `NSPersistentHistoryTransaction`: on GraphStore, ``HistoryTransaction``.
@available(*, unavailable, renamed: "HistoryTransaction")
public typealias NSPersistentHistoryTransaction = HistoryTransaction

/// Core Data's `NSPersistentHistoryChange`: on GraphStore, ``HistoryChange``.
@available(*, unavailable, renamed: "HistoryChange")
public typealias NSPersistentHistoryChange = HistoryChange

/// Core Data's `NSPersistentHistoryChangeType`: on GraphStore, ``HistoryChange/ChangeType``.
@available(*, unavailable, renamed: "HistoryChange.ChangeType")
public typealias NSPersistentHistoryChangeType = HistoryChange.ChangeType

/// Core Data's `NSPersistentHistoryToken`: on GraphStore, ``HistoryToken`` (the
/// transaction's number, not opaque).
@available(*, unavailable, renamed: "HistoryToken")
public typealias NSPersistentHistoryToken = HistoryToken

/// Core Data's `NSPersistentHistoryChangeRequest`: on GraphStore, the store reads and
/// purges its history itself.
@available(*, unavailable, message: "the store reads and purges history: try store.fetchHistory(after: token), try store.deleteHistory(before: token)")
public typealias NSPersistentHistoryChangeRequest = HistoryTransaction

extension HistoryTransaction {
    /// Core Data's `transactionNumber`.
    @available(*, unavailable, renamed: "number")
    public var transactionNumber: Int64 { number }
}

extension HistoryChange {
    /// Core Data's `changeID`.
    @available(*, unavailable, renamed: "number")
    public var changeID: Int64 { number }

    /// Core Data's `changedObjectID` (nil on GraphStore for an entity the model lacks).
    @available(*, unavailable, renamed: "objectID")
    public var changedObjectID: ObjectID? { objectID }
}

#endif
