import Foundation
import Testing
@testable import GraphStore

/// `SortDescriptor(\Recipe.type?.name)`: a sort descriptor through an optional to-one sorts
/// by `type.name` as Core Data does, recipes without a type where the store puts NULL
/// (first when ascending), unsaved ones merged in their place; a key path that cannot sort
/// a fetch is refused with its root, its value and why.
@Suite struct TypedSortThroughToOneTests {
    /// Apple's Recipes sample, its two entities that matter here.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Recipe") {
                AttributeDescription("name", .string)
                AttributeDescription("prepTime", .string)
                RelationshipDescription("type", to: "RecipeType", inverse: "recipes")
            }
            EntityDescription("RecipeType") {
                AttributeDescription("name", .string)
                RelationshipDescription("recipes", to: "Recipe", inverse: "type", toMany: true)
            }
        }
    }

    let context: ManagedObjectContext

    /// Brownies (Dessert), Bread (no type), Soup (Entrée), Tart (Dessert), Crisps (Snack). Saved.
    init() throws {
        context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: try Self.model()))
        var types: [String: TypedRecipeType] = [:]
        for name in ["Dessert", "Entrée", "Snack"] {
            let type = TypedRecipeType(context: context)
            type.name = name
            types[name] = type
        }
        for (name, type) in [("Brownies", "Dessert"), ("Bread", nil), ("Soup", "Entrée"), ("Tart", "Dessert"), ("Crisps", "Snack")] as [(String, String?)] {
            let recipe = TypedRecipe(context: context)
            recipe.name = name
            recipe.type = type.flatMap { types[$0] }
        }
        try context.save()
    }

    private func names(_ sortBy: [SortDescriptor<TypedRecipe>]) throws -> [String] {
        try context.fetch(try FetchRequest<TypedRecipe>(sortBy: sortBy)).map { $0.name ?? "" }
    }

    /// The same order as `SortKey("type.name")`, NULL first, in the same SQL.
    @Test func sortsByTheDestinationsAttribute() throws {
        let request = try FetchRequest<TypedRecipe>(sortBy: [SortDescriptor(\.type?.name), SortDescriptor(\.name)])
        #expect(request.sortKeys == [SortKey("type.name"), SortKey("name")])
        #expect(try names([SortDescriptor(\.type?.name), SortDescriptor(\.name)]) == ["Bread", "Brownies", "Tart", "Soup", "Crisps"])
        #expect(try names([SortDescriptor(\.type?.name, order: .reverse), SortDescriptor(\.name)]) == ["Crisps", "Soup", "Brownies", "Tart", "Bread"])
        var untyped = FetchRequest(entityName: "Recipe")
        untyped.sortKeys = [SortKey("type.name"), SortKey("name")]
        #expect(try context.store.sql(for: request).sql == (try context.store.sql(for: untyped).sql))
    }

    /// Unsaved recipes, with and without a type, come where their type's name sorts.
    @Test func unsavedObjectsAreMergedInTheirPlace() throws {
        let pie = TypedRecipe(context: context)
        pie.name = "Pie"
        pie.type = try context.fetch(try FetchRequest<TypedRecipeType>(format: "name == 'Entrée'")).first
        let water = TypedRecipe(context: context)
        water.name = "Water"
        #expect(try names([SortDescriptor(\.type?.name), SortDescriptor(\.name)]) == ["Bread", "Water", "Brownies", "Tart", "Pie", "Soup", "Crisps"])
    }

    /// What cannot sort a fetch says which key path (its root and value) and why, instead
    /// of Swift's description of the key path.
    @Test func anUntranslatableKeyPathIsNamedWithTheReason() throws {
        do {
            _ = try FetchRequest<TypedRecipe>(sortBy: [SortDescriptor(\.type?.name?.count)])
            Issue.record("a key path to a String's count sorted a fetch")
        } catch {
            let text = "\(error)"
            #expect(text.contains("TypedRecipe"), "\(text)")
            #expect(text.contains("Optional<Int>") || text.contains("Int?"), "\(text)")
            #expect(text.contains("to-one"), "\(text)")
        }
    }

    /// `graphstore codegen` writes the names a sort through a to-one needs.
    @Test func generatedClassesNameKeyPathsThroughToOnes() throws {
        var model = try Self.model()
        var entities = model.entities
        for i in entities.indices { entities[i].codeGeneration = .classDefinition }
        model = try ManagedObjectModel(entities: entities)
        let files = ModelCodeGenerator(model: model).files()
        let recipe = try #require(files.first { $0.name == "Recipe.swift" }).contents
        #expect(recipe.contains(#"\.type?.name: "type.name","#))
        #expect(recipe.contains(#"\.type: "type","#))
        let type = try #require(files.first { $0.name == "RecipeType.swift" }).contents
        #expect(!type.contains(#"\.recipes?."#))
    }

    /// Apple's Recipes sample (`Recipes/Recipes.sqlite`, alhoqbani's copy of the sample): the
    /// recipes sorted by their type's name, read from the store Core Data wrote.
    @Test func theRecipesSampleSortsByTypeName() throws {
        guard let corpus = try Fixtures.requireCorpus("theRecipesSampleSortsByTypeName") else { return }
        let path = corpus.appendingPathComponent("stores/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: path))
        let recipes = try context.fetch(try FetchRequest<TypedRecipe>(sortBy: [SortDescriptor(\.type?.name)]))
        #expect(recipes.map { $0.type?.name ?? "" } == ["Dessert", "Entrée", "Snack"])
        #expect(recipes.map { $0.name ?? "" } == ["Recipe 1", "Recipe 2", "Recipe 3"])
    }
}

/// Apple's Recipes sample's `Recipe`, written by hand: its names include the to-one's
/// destination attribute read through the optional, as generated classes list them.
final class TypedRecipe: ManagedObject, EntityObject {
    class var entityName: String { "Recipe" }
    class var relatedClasses: [any EntityObject.Type] { [TypedRecipeType.self] }
    private static let propertyNames: PropertyNames<TypedRecipe> = [
        \.name: "name", \.type: "type", \.type?.name: "type.name",
    ]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("name") var name: String?
    @Relationship("type") var type: TypedRecipeType?
}

final class TypedRecipeType: ManagedObject, EntityObject {
    class var entityName: String { "RecipeType" }
    class var relatedClasses: [any EntityObject.Type] { [TypedRecipe.self] }
    private static let propertyNames: PropertyNames<TypedRecipeType> = [\.name: "name", \.recipes: "recipes"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("name") var name: String?
    @Relationship("recipes") var recipes: Set<TypedRecipe>
}
