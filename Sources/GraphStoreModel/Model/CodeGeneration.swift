/// What Xcode's model editor generates for an entity (its "Codegen" setting,
/// `codeGenerationType` in the model file); Manual/None is no setting at all.
///
/// `graphstore codegen` follows it as Xcode does: a class definition writes the whole class,
/// a category/extension only its properties, for a class the app declares itself.
///
/// ```swift
/// model.entity(named: "Book")?.codeGeneration   // .classDefinition
/// ```
public enum CodeGeneration: String, Sendable, Hashable, CaseIterable {
    /// "Class Definition" (`codeGenerationType="class"`): the class and its properties.
    case classDefinition = "class"
    /// "Category/Extension" (`codeGenerationType="category"`): the properties only, in an
    /// extension of a class the app writes.
    case categoryExtension = "category"
}
