import Foundation
import GraphStoreModel

// What the GraphStoreCodegen plugin runs: `graphstore codegen` (the same parser, generator
// and output), built from GraphStoreModel alone, so that the plugin's host build compiles
// the model and its readers rather than the whole library and the shell (see Package.swift).
exit(CodegenCommand.run(Array(CommandLine.arguments.dropFirst()), as: "graphstore-codegen"))
