import Foundation
import Testing
@testable import GraphStore

// objc.io's Core Data book sample "Moody" (github.com/objcio/core-data, folder Moody),
// ported onto GraphStore: its model (MoodyModel/Moody.xcdatamodeld), the parts of its
// Country, Continent and Mood classes that keep the counts (MoodyModel/Country.swift,
// Continent.swift, Mood.swift, DelayedDeletable.swift), and its merge policy
// (MoodyModel/MoodyMergePolicy.swift) with as few changes as GraphStore's API asks: the
// keyed accessors for @NSManaged properties, `try` where GraphStore's calls throw, and
// fetch requests by entity name.

/// Moody's model, as its `Moody.xcdatamodel` declares it.
enum MoodyModel {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Region", abstract: true) {
                AttributeDescription("markedForDeletionDate", .date)
                AttributeDescription("numberOfMoods", .integer64, optional: false, default: .integer(0))
                AttributeDescription("numericISO3166Code", .integer16, optional: false, default: .integer(0))
                AttributeDescription("uniquenessDummy", .integer16, optional: false, default: .integer(0))
                AttributeDescription("updatedAt", .date, optional: false)
                FetchIndex("byMarkedForDeletionDateUpdatedAt", ["markedForDeletionDate", "updatedAt"])
                Unique("numericISO3166Code", "uniquenessDummy")
            }
            EntityDescription("Continent", parent: "Region") {
                AttributeDescription("numberOfCountries", .integer64, optional: false, default: .integer(0))
                RelationshipDescription("countries", to: "Country", inverse: "continent", toMany: true)
            }
            EntityDescription("Country", parent: "Region") {
                RelationshipDescription("continent", to: "Continent", inverse: "countries")
                RelationshipDescription("moods", to: "Mood", inverse: "country", toMany: true)
            }
            EntityDescription("Mood") {
                AttributeDescription("colors", .transformable)
                AttributeDescription("creatorID", .string)
                AttributeDescription("date", .date, optional: false)
                AttributeDescription("latitude", .double)
                AttributeDescription("longitude", .double)
                AttributeDescription("markedForDeletionDate", .date)
                AttributeDescription("markedForRemoteDeletion", .boolean, optional: false, default: .bool(false))
                AttributeDescription("remoteIdentifier", .string)
                RelationshipDescription("country", to: "Country", inverse: "moods")
                FetchIndex("byRemoteDeletionDeletionDateDate", ["markedForRemoteDeletion", "markedForDeletionDate", "date"])
            }
        }
    }

    /// A context of a Moody store with Moody's classes and merge policy (as `MoodyStack`
    /// sets it on its view context).
    static func context(_ path: String, creating: Bool = false) throws -> ManagedObjectContext {
        let model = try model()
        let store = creating ? try PersistentStore.create(at: path, model: model) : try PersistentStore(path: path, model: model, readOnly: false)
        let context = ManagedObjectContext(store: store)
        context.register(Mood.self, forEntity: "Mood")
        context.register(Country.self, forEntity: "Country")
        context.register(Continent.self, forEntity: "Continent")
        context.mergePolicy = MoodyMergePolicy(mode: .local)
        return context
    }

    /// The countries and continent of the tests (Moody's `ISO3166`).
    static let germany: Int16 = 276
    static let france: Int16 = 250
    static let poland: Int16 = 616
    static let europe: Int16 = 10003
}

// MARK: - Moody's model classes (the counting parts)

/// Moody's `UpdateTimestampable`.
protocol UpdateTimestampable: AnyObject {
    var updatedAt: Date { get set }
}

let UpdateTimestampKey = "updatedAt"

/// The helpers Moody's `Managed` and `DelayedDeletable` protocols give its classes.
class MoodyObject: ManagedObject {
    func changedValue(forKey key: String) -> PropertyValue? { (try? changedValues())?[key] }
    func committedInteger(forKey key: String) -> Int64 { (try? committedValues(forKeys: [key]))?[key]?.attributeValue?.integerValue ?? 0 }
    func integer(_ key: String) -> Int64 { ((try? get(key, as: Int64.self)) ?? nil) ?? 0 }
    func setInteger(_ key: String, _ value: Int64) { try? set(key, value) }

    var updatedAt: Date {
        get { ((try? get("updatedAt", as: Date.self)) ?? nil) ?? .distantPast }
        set { try? set("updatedAt", newValue) }
    }

    var markedForDeletionDate: Date? { (try? get("markedForDeletionDate", as: Date.self)) ?? nil }

    func markForLocalDeletion() {
        guard isFault || markedForDeletionDate == nil else { return }
        try? set("markedForDeletionDate", Date())
    }

    var changedForDelayedDeletion: Bool {
        guard case .attribute(.some)? = changedValue(forKey: "markedForDeletionDate") else { return false }
        return true
    }

    /// Moody's test helper `materialize()`: every property read, so the object is no fault.
    func materialize() -> Self {
        for name in mapping.attributeNames { _ = try? value(forKey: name) }
        for relationship in mapping.relationships where relationship.relationship.isToMany { _ = try? objects(forKey: relationship.relationship.name) }
        return self
    }

    /// Moody's `refresh()`: `managedObjectContext?.refresh(self, mergeChanges: true)`.
    func refresh() { try? managedObjectContext?.refresh(self, mergeChanges: true) }

    /// Moody's `findOrCreate(in:matching:configure:)`: the object matching, else a new one.
    static func findOrCreate<T: MoodyObject>(_ type: T.Type, entity: String, in context: ManagedObjectContext, code: Int16, configure: (T) throws -> Void) throws -> T {
        var request = try FetchRequest(entityName: entity, format: "numericISO3166Code == %d", Int(code))
        request.fetchLimit = 1
        if let found = try context.fetch(request).first as? T { return found }
        let made = try context.insert(T.self, entity: entity)
        try configure(made)
        return made
    }
}

final class Mood: MoodyObject {
    var country: Country? {
        get { (try? object(forKey: "country")) as? Country }
        set { try? setObject(newValue, forKey: "country") }
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        try? setPrimitiveValue(.date(Date()), forKey: "date")
    }

    static func insert(into moc: ManagedObjectContext, isoCountry: Int16) throws -> Mood {
        let mood = try moc.insert(Mood.self, entity: "Mood")
        mood.country = try Country.findOrCreate(for: isoCountry, in: moc)
        return mood
    }

    override func willSave() {
        super.willSave()
        if changedForDelayedDeletion { country = nil }
    }
}

final class Country: MoodyObject, UpdateTimestampable {
    var moods: [Mood] { ((try? objects(forKey: "moods")) ?? []).compactMap { $0 as? Mood } }
    var continent: Continent? {
        get { (try? object(forKey: "continent")) as? Continent }
        set { try? setObject(newValue, forKey: "continent") }
    }
    var numberOfMoods: Int64 {
        get { integer("numberOfMoods") }
        set { setInteger("numberOfMoods", newValue) }
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        try? setPrimitiveValue(.date(Date()), forKey: "updatedAt")
    }

    static func findOrCreate(for isoCountry: Int16, in context: ManagedObjectContext) throws -> Country {
        try findOrCreate(Country.self, entity: "Country", in: context, code: isoCountry) {
            try $0.set("numericISO3166Code", isoCountry)
            $0.continent = try Continent.findOrCreateContinent(for: isoCountry, in: context)
        }
    }

    override func prepareForDeletion() {
        guard let c = continent else { return }
        if c.countries.filter({ !$0.isDeleted }).isEmpty {
            try? managedObjectContext?.delete(c)
        }
    }

    override func willSave() {
        super.willSave()
        if hasChangedMoods {
            updateMoodCount()
            if moods.count == 0 { markForLocalDeletion() }
        }
        if hasInsertedMoods { refreshUpdateDate() }
        if changedForDelayedDeletion { continent = nil }
    }

    var changedMoodCountDelta: Int64 {
        guard hasChangedMoods else { return 0 }
        return numberOfMoods - committedInteger(forKey: "numberOfMoods")
    }

    private var hasChangedMoods: Bool { changedValue(forKey: "moods") != nil }

    private var hasInsertedMoods: Bool {
        guard hasChangedMoods else { return false }
        return moods.filter { $0.isInserted }.count > 0
    }

    private func refreshUpdateDate() {
        guard changedValue(forKey: UpdateTimestampKey) == nil else { return }
        updatedAt = Date()
        continent?.refreshUpdateDate()
    }

    private func updateMoodCount() {
        guard Int64(moods.count) != numberOfMoods else { return }
        numberOfMoods = Int64(moods.count)
        continent?.updateMoodCount()
    }
}

final class Continent: MoodyObject, UpdateTimestampable {
    var countries: [Country] { ((try? objects(forKey: "countries")) ?? []).compactMap { $0 as? Country } }
    var numberOfCountries: Int64 {
        get { integer("numberOfCountries") }
        set { setInteger("numberOfCountries", newValue) }
    }
    var numberOfMoods: Int64 {
        get { integer("numberOfMoods") }
        set { setInteger("numberOfMoods", newValue) }
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        try? setPrimitiveValue(.date(Date()), forKey: "updatedAt")
    }

    static func findOrCreateContinent(for isoCountry: Int16, in context: ManagedObjectContext) throws -> Continent? {
        // The tests' countries are all in Europe (Moody's `ISO3166.Continent(country:)`).
        try findOrCreate(Continent.self, entity: "Continent", in: context, code: MoodyModel.europe) {
            try $0.set("numericISO3166Code", MoodyModel.europe)
        }
    }

    override func willSave() {
        super.willSave()
        if hasChangedCountries {
            updateCountryCount()
            if countries.count == 0 { markForLocalDeletion() }
        }
        updateMoodCount()
    }

    func refreshUpdateDate() {
        guard changedValue(forKey: UpdateTimestampKey) == nil else { return }
        updatedAt = Date()
    }

    func updateMoodCount() {
        var seen = Set<ObjectIdentifier>()
        let currentAndDeletedCountries = (countries + committedCountries).filter { seen.insert(ObjectIdentifier($0)).inserted }
        let deltaInCountries: Int64 = currentAndDeletedCountries.reduce(0) { $0 + $1.changedMoodCountDelta }
        let pendingDelta = numberOfMoods - committedInteger(forKey: "numberOfMoods")
        guard pendingDelta != deltaInCountries else { return }
        numberOfMoods = committedInteger(forKey: "numberOfMoods") + deltaInCountries
    }

    private var hasChangedCountries: Bool { changedValue(forKey: "countries") != nil }

    private func updateCountryCount() {
        guard numberOfCountries != Int64(countries.count) else { return }
        numberOfCountries = Int64(countries.count)
    }

    private var committedCountries: [Country] {
        ((try? committedValues(forKeys: ["countries"]))?["countries"]?.objects ?? []).compactMap { $0 as? Country }
    }
}

// MARK: - Moody's merge policy

public class MoodyMergePolicy: MergePolicy {
    public enum MergeMode {
        case remote
        case local

        fileprivate var mergeType: MergePolicyType {
            switch self {
            case .remote: return .mergeByPropertyObjectTrumpMergePolicyType
            case .local: return .mergeByPropertyStoreTrumpMergePolicyType
            }
        }
    }

    required public init(mode: MergeMode) {
        super.init(merge: mode.mergeType)
    }

    override open func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
        var regionsAndLatestDates: [(UpdateTimestampable, Date)] = []
        for (c, r) in list.conflictsAndObjects(of: UpdateTimestampable.self) {
            regionsAndLatestDates.append((r, c.newestUpdatedAt))
        }

        try super.resolve(optimisticLockingConflicts: list)

        for (region, date) in regionsAndLatestDates {
            region.updatedAt = date
        }

        try resolveCountryConflicts(list)
        try resolveContinentConflicts(list)
    }

    func resolveCountryConflicts(_ conflicts: [MergeConflict]) throws {
        for country in conflicts.conflictedObjects(of: Country.self) {
            country.refresh()
            country.numberOfMoods = Int64(country.moods.count)
        }
    }

    func resolveContinentConflicts(_ conflicts: [MergeConflict]) throws {
        for continent in conflicts.conflictedObjects(of: Continent.self) {
            continent.refresh()
            continent.numberOfCountries = Int64(continent.countries.count)
            guard let ctx = continent.managedObjectContext else { continue }
            let count = try ctx.count(for: FetchRequest(entityName: "Mood", format: "markedForDeletionDate == nil AND country IN %@", continent.countries))
            continent.numberOfMoods = Int64(count)
        }
    }
}

extension MergeConflict {
    var newestUpdatedAt: Date {
        guard let o = sourceObject as? UpdateTimestampable else { return .distantPast }
        let key = UpdateTimestampKey
        let zeroDate = Date(timeIntervalSince1970: 0)
        let objectDate = objectSnapshot?[key]?.attributeValue?.dateValue ?? zeroDate
        let cachedDate = cachedSnapshot?[key]?.attributeValue?.dateValue ?? zeroDate
        let persistedDate = persistedSnapshot?[key]?.attributeValue?.dateValue ?? zeroDate
        return max(o.updatedAt as Date, max(objectDate, max(cachedDate, persistedDate)))
    }
}

extension Sequence where Iterator.Element == MergeConflict {
    func conflictedObjects<T>(of cls: T.Type) -> [T] {
        let objects = map { $0.sourceObject }
        return objects.compactMap { $0 as? T }
    }

    func conflictsAndObjects<T>(of cls: T.Type) -> [(MergeConflict, T)] {
        return compactMap { conflict in (conflict.sourceObject as? T).map { (conflict, $0) } }
    }
}

// MARK: - Moody's tests

/// Moody's `MoodyModelTests/MoodyMergePolicyTests.swift` (objc.io, objcio/core-data), on a
/// real SQLite store made with Moody's model: two contexts on one store file (Moody's share
/// a coordinator; GraphStore's have a connection each), both with `MoodyMergePolicy(mode:
/// .local)`.
@Suite struct MoodyMergePolicyTests {
    let managedObjectContext1: ManagedObjectContext
    let managedObjectContext2: ManagedObjectContext
    let path: String

    init() throws {
        path = try Fixtures.newStorePath("moody.sqlite")
        managedObjectContext1 = try MoodyModel.context(path, creating: true)
        managedObjectContext2 = try MoodyModel.context(path)
    }

    private func rows(_ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }

    /// Moody's `MoodyMergePolicyConstraintTests.testThatRegionIsoCodeIsEnforcedToBeUnique`:
    /// both contexts insert a mood in Germany, which makes a country and a continent in
    /// each; the second save meets the first's country and continent as uniqueness
    /// conflicts, and ends with one country whose moods are all its own.
    @Test func regionIsoCodeIsEnforcedToBeUnique() throws {
        // Given
        let m1 = try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany)
        let m2 = try Mood.insert(into: managedObjectContext2, isoCountry: MoodyModel.germany)
        try managedObjectContext2.save()

        // When
        try managedObjectContext1.save()

        // Then
        #expect(m1.country?.objectID == m2.country?.objectID)
        #expect(m1.country?.continent?.objectID == m2.country?.continent?.objectID)
        #expect(m1.country?.numberOfMoods == 2)
        #expect(m1.country?.continent?.numberOfCountries == 1)
        #expect(m1.country?.continent?.numberOfMoods == 2)
        // One country and one continent in the store; both moods are the country's.
        #expect(try rows("SELECT Z_PK, ZNUMERICISO3166CODE, ZNUMBEROFMOODS FROM ZREGION ORDER BY ZNUMERICISO3166CODE") == [["1", "276", "2"], ["2", "10003", "2"]])
        #expect(try rows("SELECT ZCOUNTRY FROM ZMOOD ORDER BY Z_PK") == [["1"], ["1"]])
        #expect(try rows("SELECT ZCONTINENT FROM ZREGION WHERE Z_PK = 1") == [["2"]])
    }

    /// Moody's `testThatConflictedUpdatedAtResolvesToLatestDate`.
    @Test func conflictedUpdatedAtResolvesToLatestDate() throws {
        // Given
        let country1 = try #require(try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany).country)
        try managedObjectContext1.save()
        let country2 = try #require(try managedObjectContext2.object(for: country1.objectID) as? Country).materialize()
        let winningDate = Date(timeIntervalSinceNow: 20)

        // When
        country1.updatedAt = winningDate
        try managedObjectContext1.save()
        country2.updatedAt = Date(timeIntervalSinceNow: 10)
        try managedObjectContext2.save()
        try managedObjectContext2.reload([country2])   // Moody: refreshAllObjects()

        // Then
        #expect(country2.updatedAt == winningDate)
    }

    /// Moody's `testThatConflictedNumberOfMoodsOnCountryResolvesToPersistedState`.
    @Test func conflictedNumberOfMoodsOnCountryResolvesToPersistedState() throws {
        // Given
        let country1 = try #require(try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany).country)
        try managedObjectContext1.save()
        _ = try Mood.insert(into: managedObjectContext2, isoCountry: MoodyModel.germany)
        try managedObjectContext2.save()

        // When
        _ = try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany)
        try managedObjectContext1.save()

        // Then
        #expect(country1.numberOfMoods == 3)
        #expect(try rows("SELECT ZNUMBEROFMOODS FROM ZREGION WHERE Z_PK = 1") == [["3"]])
    }

    /// Moody's `testThatConflictedNumberOfMoodsOnContinentResolvesToPersistedState`.
    @Test func conflictedNumberOfMoodsOnContinentResolvesToPersistedState() throws {
        // Given
        let continent1 = try #require(try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany).country?.continent)
        try managedObjectContext1.save()
        _ = try Mood.insert(into: managedObjectContext2, isoCountry: MoodyModel.germany)
        try managedObjectContext2.save()

        // When
        _ = try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany)
        try managedObjectContext1.save()

        // Then
        #expect(continent1.numberOfMoods == 3)
    }

    /// Moody's `testThatConflictedNumberOfCountriesOnContinentResolvesToPersistedState`.
    @Test func conflictedNumberOfCountriesOnContinentResolvesToPersistedState() throws {
        // Given
        let continent1 = try #require(try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.germany).country?.continent)
        try managedObjectContext1.save()
        _ = try Mood.insert(into: managedObjectContext2, isoCountry: MoodyModel.france)
        try managedObjectContext2.save()

        // When
        _ = try Mood.insert(into: managedObjectContext1, isoCountry: MoodyModel.poland)
        try managedObjectContext1.save()

        // Then
        #expect(continent1.numberOfCountries == 3)
    }
}
