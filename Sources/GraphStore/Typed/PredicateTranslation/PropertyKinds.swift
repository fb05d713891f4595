import Foundation

/// What a key path's value is, found from its Swift type: a to-one (`Destination?`), a
/// to-many (`Set<Destination>`, `[Destination]`), or an attribute (an ``AttributeProperty``).
protocol ToOneValue {
    static var destinationClass: ManagedObject.Type { get }
}

extension Optional: ToOneValue where Wrapped: ManagedObject {
    static var destinationClass: ManagedObject.Type { Wrapped.self }
}

protocol ToManyValue {
    static var memberClass: ManagedObject.Type { get }
    /// `\.count` and `\.isEmpty` of the collection (key paths to the standard library's
    /// computed properties have no name at run time, but compare equal).
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: ToManyValue where Element: ManagedObject {
    static var memberClass: ManagedObject.Type { Element.self }
    static var countKeyPath: AnyKeyPath { setKeyPaths(Element.self).count }
    static var isEmptyKeyPath: AnyKeyPath { setKeyPaths(Element.self).isEmpty }
}

extension Array: ToManyValue where Element: ManagedObject {
    static var memberClass: ManagedObject.Type { Element.self }
    static var countKeyPath: AnyKeyPath { \Array<Element>.count }
    static var isEmptyKeyPath: AnyKeyPath { \Array<Element>.isEmpty }
}

/// `\Set<Element>.count` and `.isEmpty`, made where `Element: Hashable` is a plain
/// requirement (written inside `Set where Element: ManagedObject`, Swift 6.3's compiler
/// cannot find the inherited conformance and stops).
private func setKeyPaths<Element: Hashable>(_: Element.Type) -> (count: AnyKeyPath, isEmpty: AnyKeyPath) {
    (\Set<Element>.count, \Set<Element>.isEmpty)
}

/// A constant collection a predicate may test membership in (`[1, 2].contains($0.age)`).
protocol ConstantCollection {
    var predicateValues: [PredicateValue] { get }
}

extension Array: ConstantCollection where Element: AttributeProperty {
    var predicateValues: [PredicateValue] { map { PredicateValue(storedValue: $0.storedValue) } }
}

extension Set: ConstantCollection where Element: AttributeProperty {
    var predicateValues: [PredicateValue] { map { PredicateValue(storedValue: $0.storedValue) } }
}

/// A constant range (`(10...20).contains($0.price)` with a captured range).
protocol ConstantRange {
    var bounds: (lower: PredicateValue, upper: PredicateValue, closed: Bool) { get }
}

extension ClosedRange: ConstantRange where Bound: AttributeProperty {
    var bounds: (lower: PredicateValue, upper: PredicateValue, closed: Bool) {
        (PredicateValue(storedValue: lowerBound.storedValue), PredicateValue(storedValue: upperBound.storedValue), true)
    }
}

extension Range: ConstantRange where Bound: AttributeProperty {
    var bounds: (lower: PredicateValue, upper: PredicateValue, closed: Bool) {
        (PredicateValue(storedValue: lowerBound.storedValue), PredicateValue(storedValue: upperBound.storedValue), false)
    }
}

extension PredicateValue {
    /// An attribute value as a predicate constant (nil as `.null`).
    init(storedValue: AttributeValue?) {
        self = storedValue.map(PredicateValue.attribute) ?? .null
    }
}

/// A class as an ``EntityObject`` class, which can name its properties.
func entityClass(_ type: ManagedObject.Type) -> (any EntityObject.Type)? { type as? any EntityObject.Type }
