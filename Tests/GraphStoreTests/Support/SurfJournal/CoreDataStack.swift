import Foundation
import GraphStore

// Ported from Core Data by Tutorials' SurfJournal (kodecocodes/cdt-materials,
// 09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/CoreDataStack.swift).
// Changed for GraphStore:
// - the container opens the files it is given (`PersistentContainer(path:model:)`), where
//   `NSPersistentContainer(name:)` found them: the app's bundle is the corpus's copy of the
//   project and its support folder a scratch folder, both given to `init`;
// - it is made by `init`, which throws (a lazy property cannot), where the app's
//   `loadPersistentStores` handed the error to a block that called `fatalError`;
// - "first launch" is a missing store file, where the app asked `UserDefaults`;
// - `saveContext()` throws where the app called `fatalError`.

@MainActor final class CoreDataStack {
    let storeContainer: PersistentContainer
    var mainContext: ManagedObjectContext { storeContainer.viewContext }

    /// The stack of the model `modelName` in `modelBundle`, its store in `directory`,
    /// seeded from `seedStore` (and its `-shm` and `-wal`) on first launch.
    init(modelName: String, modelBundle: String, seedStore: String, directory: String) throws {
        let storePath = directory + "/" + modelName + ".sqlite"
        try Self.seedCoreDataContainerIfFirstLaunch(storePath: storePath, seedStore: seedStore)
        storeContainer = try PersistentContainer(path: storePath, model: try ModelFile(path: modelBundle + "/" + modelName + ".xcdatamodeld").model)
    }

    /// Saves the main context if it has changes.
    func saveContext() throws {
        guard mainContext.hasChanges else { return }
        try mainContext.save()
    }

    /// Copies the seed store, its shared-memory file and its log where the store goes.
    private static func seedCoreDataContainerIfFirstLaunch(storePath: String, seedStore: String) throws {
        guard !FileManager.default.fileExists(atPath: storePath) else { return }
        for suffix in ["", "-shm", "-wal"] where FileManager.default.fileExists(atPath: seedStore + suffix) {
            _ = try? FileManager.default.removeItem(atPath: storePath + suffix)
            try FileManager.default.copyItem(atPath: seedStore + suffix, toPath: storePath + suffix)
        }
    }
}
