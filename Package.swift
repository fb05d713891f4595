// swift-tools-version: 6.0
import PackageDescription

// Dependencies, each for one job:
// - swift-collections: OrderedSet for to-many relationships (order kept, membership in O(1)).
// The toolchain's ICU (`_FoundationICU`, which Foundation itself links) is linked by name:
// MATCHES calls ICU's C regex API for its work limit and interruption (see
// Predicate/ICURegularExpression.swift).
let package = Package(
    name: "GraphStore",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GraphStore", targets: ["GraphStore"]),
        .library(name: "GraphStoreShell", targets: ["GraphStoreShell"]),
        .executable(name: "graphstore", targets: ["graphstore"]),
        .plugin(name: "GraphStoreCodegen", targets: ["GraphStoreCodegen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The model, its files' readers (ModelIO but what reads a store) and the code generator,
        // apart from the rest of the library for the codegen plugin: SwiftPM builds a plugin's
        // tool a second time for the host, and `graphstore-codegen` needs only these (about
        // 6.7k lines), where `graphstore` would need the whole library and the shell (about
        // 50k). GraphStore re-exports it, so `import GraphStore` still gives every name.
        .target(name: "GraphStoreModel", dependencies: ["CZlib"]),
        .target(
            name: "GraphStore",
            dependencies: [
                "GraphStoreModel", "CSQLite",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        .target(name: "GraphStoreShell", dependencies: ["GraphStore", "CEditLine"]),
        // The command line is parsed by GraphStoreShell's LaunchOptions, not swift-argument-parser:
        // measured in the installed (static, non-PIE) build, round-robin with this parser,
        // swift-argument-parser 1.8.2 adds 2.4–2.9 ms to every start (`graphstore STORE
        // .entities` 8.3 → 10.7 ms), over the 10 ms budget: its reflection over the flags walks
        // the binary's protocol conformances some 30 more times per start (Benchmarks/README.md,
        // "Cold start"). LaunchOptions also runs interleaved -c and -f in the order given
        // (`-c A -f B -c C`, as sqlite3 does), which swift-argument-parser's separate option
        // arrays cannot tell (its ordered heterogeneous options are an open proposal,
        // apple/swift-argument-parser#862), and maps usage errors to exit status 2.
        .executableTarget(name: "graphstore", dependencies: ["GraphStoreShell"]),
        .executableTarget(name: "bookstore-example", dependencies: ["GraphStore"], path: "examples/BookStore/Sources"),
        .executableTarget(name: "groceries-example", dependencies: ["GraphStore"], path: "examples/GroceryDude/Sources"),
        .executableTarget(name: "users-example", dependencies: ["GraphStore"], path: "examples/Users/Sources"),
        .executableTarget(name: "songbook-example", dependencies: ["GraphStore"], path: "examples/Songbook/Sources"),
        // Generates an app's classes from its .xcdatamodeld at build time. Its tool is
        // `graphstore-codegen` (`graphstore codegen` on GraphStoreModel alone), not `graphstore`:
        // SwiftPM builds a plugin's tool and everything it depends on again for the host, and an
        // app's first build with the plugin would compile the whole library and the shell twice.
        .executableTarget(name: "graphstore-codegen", dependencies: ["GraphStoreModel"]),
        .plugin(name: "GraphStoreCodegen", capability: .buildTool(), dependencies: ["graphstore-codegen"]),
        .executableTarget(
            name: "plugin-example", dependencies: ["GraphStore"], path: "examples/PluginExample/Sources",
            resources: [.copy("BookStore.xcdatamodeld")], plugins: ["GraphStoreCodegen"]),
        .executableTarget(name: "predicate-vectors", dependencies: ["GraphStore"]),
        // Tests' temporary files, removed when the test process exits.
        .target(name: "TestScratch", dependencies: ["CSQLite"], path: "Tests/TestScratch"),
        .testTarget(name: "GraphStoreTests", dependencies: ["GraphStore", "GraphStoreModel", "CSQLite", "TestScratch"]),
        // Golden transcripts are read from the source tree (see GoldenTests), not bundled.
        .testTarget(name: "GraphStoreShellTests", dependencies: ["GraphStoreShell", "GraphStore", "TestScratch"], exclude: ["Golden"]),
        // Measures a child's own peak memory for the end-to-end tests (see its main.c for why).
        .executableTarget(name: "peak-memory", path: "Tests/PeakMemory"),
        .testTarget(name: "EndToEndTests", dependencies: ["graphstore", "graphstore-codegen", "peak-memory", "CSQLite", "TestScratch"]),
    ],
    swiftLanguageModes: [.v6]
)
