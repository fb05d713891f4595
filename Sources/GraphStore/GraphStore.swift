// GraphStore: Core Data's object graph for Swift on Linux, on SQLite stores in Core Data's layout.

// The model, its files' readers and the code generator are their own target (see
// Package.swift: the codegen plugin's host build compiles only them). Re-exported, so that
// `import GraphStore` alone gives an app every name, as before the split.
@_exported import GraphStoreModel
