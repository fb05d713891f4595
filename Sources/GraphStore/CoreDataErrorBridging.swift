import Foundation

/// The user-info keys Core Data's errors carry, with Core Data's values, so that code
/// written against `NSError` reads GraphStore's errors as it reads Core Data's.
///
/// Every error GraphStore throws with a Core Data code bridges to an `NSError` in
/// `NSCocoaErrorDomain` with that code (``StoreError``, ``FetchError``, ``FetchedPropertyError``, ``ValidationError``,
/// ``MultipleValidationErrors``, ``ConstraintConflictError``, ``MigrationError``,
/// ``MigrationRunError``, ``ModelFileError``, ``ModelCacheError``):
///
/// ```swift
/// do { try context.save() } catch {
///     let error = error as NSError
///     error.code                                             // 1570, as Core Data
///     error.userInfo[CoreDataErrorKey.validationKey]         // "title"
///     error.userInfo[CoreDataErrorKey.detailedErrors]        // [NSError] for 1560
/// }
/// ```
///
/// Where Core Data puts a managed object (`NSValidationErrorObject`, the objects of a
/// conflict), GraphStore puts its ``ObjectID``: an error outlives the objects it names.
public enum CoreDataErrorKey {
    /// The object (here its ``ObjectID``) that failed to validate (`NSValidationObjectErrorKey`).
    public static let validationObject = "NSValidationErrorObject"
    /// The property that failed to validate (`NSValidationKeyErrorKey`).
    public static let validationKey = "NSValidationErrorKey"
    /// The value that failed to validate, when there is one (`NSValidationValueErrorKey`).
    public static let validationValue = "NSValidationErrorValue"
    /// The errors inside a 1560 error, as `[NSError]` (`NSDetailedErrorsKey`).
    public static let detailedErrors = "NSDetailedErrors"
    /// The conflicts of a 133020 (``SaveConflict``) or 133021 (``ValidationError``) error
    /// (`NSPersistentStoreSaveConflictsErrorKey`).
    public static let saveConflicts = "conflictList"
    /// The objects (here ``ObjectID``s) an error is about (`NSAffectedObjectsErrorKey`).
    public static let affectedObjects = "NSAffectedObjectsErrorKey"
    /// The file an error is about (Foundation's `NSFilePathErrorKey`).
    public static let filePath = NSFilePathErrorKey
    /// SQLite's result code behind a 134180 error (`NSSQLiteErrorDomain`, a user-info key in
    /// Core Data's errors).
    public static let sqliteErrorCode = "NSSQLiteErrorDomain"
}

/// What every bridged error puts in its user info: its message.
private func described(_ error: some CustomStringConvertible, _ more: [String: Any] = [:]) -> [String: Any] {
    more.merging([NSLocalizedDescriptionKey: error.description]) { mine, _ in mine }
}

extension StoreError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message, the file where there is one, the conflicts of a 133020, SQLite's code.
    public var errorUserInfo: [String: Any] {
        switch self {
        case .optimisticLockingFailure(let conflicts):
            described(self, [CoreDataErrorKey.saveConflicts: conflicts, CoreDataErrorKey.affectedObjects: conflicts.map(\.objectID)])
        case .sqlite(let error):
            described(self, [CoreDataErrorKey.sqliteErrorCode: Int(error.code)])
        default:
            described(self, path.map { [CoreDataErrorKey.filePath: $0] } ?? [:])
        }
    }

    /// The file the error is about, if any.
    private var path: String? {
        switch self {
        case .fileNotFound(let path), .notADatabase(let path, _), .notARegularFile(let path, _), .permissionDenied(let path, _),
            .locked(let path, _), .beingMigrated(let path, _), .replaced(let path), .diskFull(let path, _), .truncated(let path, _, _),
            .damaged(let path, _), .fileSystemError(let path, _, _), .notCoreData(let path, _), .alreadyExists(let path),
            .malformedStore(let path, _), .malformedInteger(let path, _, _, _, _), .inheritanceCycle(let path, _),
            .modelMismatch(let path, _), .readOnly(let path):
            path
        default: nil
        }
    }
}

extension ValidationError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``'s number (1570 for a missing value, …).
    public var errorCode: Int { code.rawValue }
    /// The message, the object's ID, the key and the value, under Core Data's keys.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [CoreDataErrorKey.validationObject: objectID]
        if let key { info[CoreDataErrorKey.validationKey] = key }
        if let value { info[CoreDataErrorKey.validationValue] = value.foundationValue }
        if !relatedObjects.isEmpty { info[CoreDataErrorKey.affectedObjects] = relatedObjects }
        return described(self, info)
    }
}

extension MultipleValidationErrors: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// 1560.
    public var errorCode: Int { code.rawValue }
    /// The message and each failure as an `NSError` under ``CoreDataErrorKey/detailedErrors``.
    public var errorUserInfo: [String: Any] {
        described(self, [CoreDataErrorKey.detailedErrors: errors.map { $0 as NSError }])
    }
}

extension ConstraintConflictError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// 133021.
    public var errorCode: Int { code.rawValue }
    /// The message and the conflicts under ``CoreDataErrorKey/saveConflicts``.
    public var errorUserInfo: [String: Any] {
        described(self, [CoreDataErrorKey.saveConflicts: conflicts, CoreDataErrorKey.affectedObjects: conflicts.map(\.objectID)])
    }
}

extension FetchError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message.
    public var errorUserInfo: [String: Any] { described(self) }
}

extension FetchedPropertyError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message.
    public var errorUserInfo: [String: Any] { described(self) }
}

extension MigrationError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message.
    public var errorUserInfo: [String: Any] { described(self) }
}

extension MigrationRunError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message.
    public var errorUserInfo: [String: Any] { described(self) }
}

extension ModelFileError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message.
    public var errorUserInfo: [String: Any] { described(self) }
}

extension ModelCacheError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Core Data's.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``code``.
    public var errorCode: Int { code }
    /// The message.
    public var errorUserInfo: [String: Any] { described(self) }
}

extension AttributeValue {
    /// The value as the Foundation type Core Data hands out for it (`NSNumber` as a Swift
    /// number, `String`, `Date`, `Data`, `UUID`, `URL`, `Decimal`).
    public var foundationValue: Any {
        switch self {
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): v
        case .string(let v): v
        case .bool(let v): v
        case .date(let v): v
        case .data(let v): v
        case .uuid(let v): v
        case .uri(let v): v
        }
    }
}
