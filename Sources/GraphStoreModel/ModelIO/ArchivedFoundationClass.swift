/// The Foundation classes whose keyed archives GraphStore reads and writes as
/// ``PropertyListValue``s: the classes `NSSecureUnarchiveFromDataTransformer` allows, and
/// their subclasses that archives name (the mutable variants, `NSDecimalNumber`).
///
/// Swift has no classes to look up by name, so an archive's class is known by its name
/// here; its superclasses are this table's, never the archive's own `$classes` (which the
/// bytes could make up).
enum ArchivedFoundationClass: String, CaseIterable {
    case string = "NSString"
    case mutableString = "NSMutableString"
    case number = "NSNumber"
    case decimalNumber = "NSDecimalNumber"
    case date = "NSDate"
    case data = "NSData"
    case mutableData = "NSMutableData"
    case url = "NSURL"
    case uuid = "NSUUID"
    case null = "NSNull"
    case array = "NSArray"
    case mutableArray = "NSMutableArray"
    case set = "NSSet"
    case mutableSet = "NSMutableSet"
    case dictionary = "NSDictionary"
    case mutableDictionary = "NSMutableDictionary"

    /// `NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses` by name (Apple's
    /// documentation lists them).
    static let secureUnarchiveDefaults: Set<String> = [
        "NSArray", "NSDictionary", "NSSet", "NSString", "NSNumber", "NSDate", "NSData", "NSURL", "NSUUID", "NSNull",
    ]

    /// The class and its superclasses, as an archive's `$classes` lists them.
    var classes: [String] {
        switch self {
        case .mutableString: ["NSMutableString", "NSString", "NSObject"]
        case .decimalNumber: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"]
        case .mutableData: ["NSMutableData", "NSData", "NSObject"]
        case .mutableArray: ["NSMutableArray", "NSArray", "NSObject"]
        case .mutableSet: ["NSMutableSet", "NSSet", "NSObject"]
        case .mutableDictionary: ["NSMutableDictionary", "NSDictionary", "NSObject"]
        case .number: ["NSNumber", "NSValue", "NSObject"]
        default: [rawValue, "NSObject"]
        }
    }

    /// Whether an object of this class may be decoded when `allowed` names the classes
    /// allowed: it is one of them or a subclass of one.
    func isAllowed(by allowed: Set<String>) -> Bool {
        classes.contains { allowed.contains($0) }
    }
}
