// swift-tools-version: 6.0
import PackageDescription

// Benchmarks of GraphStore against raw SQLite, side by side in one run.
// Not built by `make test`: run `make bench` (or `swift run -c release graphstore-benchmarks`).
let package = Package(
    name: "GraphStoreBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "GraphStore", path: "..")],
    targets: [
        .systemLibrary(name: "CSQLiteRaw", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "graphstore-benchmarks",
            dependencies: ["CSQLiteRaw", .product(name: "GraphStore", package: "GraphStore")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
