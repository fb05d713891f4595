/// The code of a validation failure, numbered as Core Data numbers them in
/// `NSCocoaErrorDomain`, so that a code read in a log means the same thing on both sides.
///
/// ```swift
/// ValidationErrorCode.numberTooSmall.rawValue     // 1620
/// ValidationErrorCode(rawValue: 1600)             // .deleteDenied
/// ValidationErrorCode.deleteDenied.coreDataName   // "NSValidationRelationshipDeniedDeleteError"
/// ```
public enum ValidationErrorCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A rule of the app's own code failed (`NSManagedObjectValidationError`).
    case invalid = 1550
    /// Several failures at once; the details travel with the error (`NSValidationMultipleErrorsError`).
    case multipleErrors = 1560
    /// A non-optional attribute or relationship has no value (`NSValidationMissingMandatoryPropertyError`).
    case missingMandatoryProperty = 1570
    /// A to-many relationship holds fewer objects than its minimum (`NSValidationRelationshipLacksMinimumCountError`).
    case tooFewObjects = 1580
    /// A to-many relationship holds more objects than its maximum (`NSValidationRelationshipExceedsMaximumCountError`).
    case tooManyObjects = 1590
    /// A Deny delete rule refused a delete (`NSValidationRelationshipDeniedDeleteError`).
    case deleteDenied = 1600
    /// A number is above its attribute's maximum (`NSValidationNumberTooLargeError`).
    case numberTooLarge = 1610
    /// A number is below its attribute's minimum (`NSValidationNumberTooSmallError`).
    case numberTooSmall = 1620
    /// A date is after its attribute's latest date (`NSValidationDateTooLateError`).
    case dateTooLate = 1630
    /// A date is before its attribute's earliest date (`NSValidationDateTooSoonError`).
    case dateTooSoon = 1640
    /// A string (or binary value) is longer than its maximum length (`NSValidationStringTooLongError`).
    case stringTooLong = 1660
    /// A string (or binary value) is shorter than its minimum length (`NSValidationStringTooShortError`).
    case stringTooShort = 1670
    /// A string does not match its attribute's regular expression (`NSValidationStringPatternMatchingError`).
    case stringPatternMismatch = 1680
    /// A reference names an object that does not exist (`NSManagedObjectReferentialIntegrityError`).
    case referentialIntegrity = 133000
    /// Objects share the values of a uniqueness constraint (`NSManagedObjectConstraintMergeError`).
    case constraintConflict = 133021

    /// The name of Core Data's constant for this code.
    public var coreDataName: String {
        switch self {
        case .invalid: "NSManagedObjectValidationError"
        case .multipleErrors: "NSValidationMultipleErrorsError"
        case .missingMandatoryProperty: "NSValidationMissingMandatoryPropertyError"
        case .tooFewObjects: "NSValidationRelationshipLacksMinimumCountError"
        case .tooManyObjects: "NSValidationRelationshipExceedsMaximumCountError"
        case .deleteDenied: "NSValidationRelationshipDeniedDeleteError"
        case .numberTooLarge: "NSValidationNumberTooLargeError"
        case .numberTooSmall: "NSValidationNumberTooSmallError"
        case .dateTooLate: "NSValidationDateTooLateError"
        case .dateTooSoon: "NSValidationDateTooSoonError"
        case .stringTooLong: "NSValidationStringTooLongError"
        case .stringTooShort: "NSValidationStringTooShortError"
        case .stringPatternMismatch: "NSValidationStringPatternMatchingError"
        case .referentialIntegrity: "NSManagedObjectReferentialIntegrityError"
        case .constraintConflict: "NSManagedObjectConstraintMergeError"
        }
    }

    /// The number, as Core Data prints it.
    public var description: String { String(rawValue) }
}
