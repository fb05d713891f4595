import Foundation
import GraphStore

// Classes for the people store of the fetch tests (FetchFixtures.peopleModel), with
// non-optional scalars where the model's attributes are optional, as Xcode's "Use Scalar
// Type" makes them: such a property reads 0, false or "" where the store holds NULL.

final class TypedPerson: ManagedObject, EntityObject {
    class var entityName: String { "Person" }
    class var relatedClasses: [any EntityObject.Type] { [TypedAddress.self, TypedChild.self, TypedPet.self] }
    private static let propertyNames: PropertyNames<TypedPerson> = [
        \.name: "name", \.firstName: "firstName", \.age: "age", \.score: "score", \.active: "active", \.born: "born",
        \.address: "address", \.children: "children", \.pets: "pets",
    ]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("name") var name: String?
    @Attribute("firstName") var firstName: String
    @Attribute("age") var age: Int64
    @Attribute("score") var score: Double?
    @Attribute("active") var active: Bool
    @Attribute("born") var born: Date?
    @Relationship("address") var address: TypedAddress?
    @Relationship("children") var children: [TypedChild]
    @Relationship("pets") var pets: Set<TypedPet>
}

final class TypedAddress: ManagedObject, EntityObject {
    class var entityName: String { "Address" }
    class var relatedClasses: [any EntityObject.Type] { [TypedPerson.self, TypedGeo.self] }
    private static let propertyNames: PropertyNames<TypedAddress> = [\.city: "city", \.geo: "geo"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("city") var city: String?
    @Relationship("geo") var geo: TypedGeo?
}

final class TypedGeo: ManagedObject, EntityObject {
    class var entityName: String { "Geo" }
    private static let propertyNames: PropertyNames<TypedGeo> = [\.lat: "lat"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("lat") var lat: Double?
}

final class TypedChild: ManagedObject, EntityObject {
    class var entityName: String { "Child" }
    class var relatedClasses: [any EntityObject.Type] { [TypedToy.self] }
    private static let propertyNames: PropertyNames<TypedChild> = [\.name: "name", \.age: "age", \.toys: "toys"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("name") var name: String?
    @Attribute("age") var age: Int64?
    @Relationship("toys") var toys: Set<TypedToy>
}

final class TypedToy: ManagedObject, EntityObject {
    class var entityName: String { "Toy" }
    private static let propertyNames: PropertyNames<TypedToy> = [\.name: "name"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("name") var name: String?
}

final class TypedPet: ManagedObject, EntityObject {
    class var entityName: String { "Pet" }
    private static let propertyNames: PropertyNames<TypedPet> = [\.age: "age"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("age") var age: Int64
}
