import Foundation
import GraphStore

/// Core Data by Tutorials' SurfJournal (chapter 9, "Multiple Managed Object Contexts"),
/// ported in this folder, launched on the corpus: the app's own model
/// (kodecocodes/cdt-materials, `SurfJournalModel.xcdatamodeld`) and its seed store of
/// 5,000 entries (`SurfJournalDatabase.sqlite` of nvovap/SurfJournal, a copy of the app whose
/// model has the same version hash), copied into a scratch folder on first launch as the
/// app's `CoreDataStack` copies it.
@MainActor struct SurfJournalApp {
    let coreDataStack: CoreDataStack
    let list: JournalListViewController
    /// The store the app opened (the seed's copy).
    let storePath: String

    static let modelBundle = "models/kodecocodes__cdt-materials/09-multiple-managed-object-contexts/projects/challenge/SurfJournal/SurfJournal"
    static let seedStore = "stores/nvovap__SurfJournal/SurJournal/CoreDataSeed/SurfJournalDatabase.sqlite"

    /// The app on a fresh copy of the seed, its list fetched; nil (having said why) without
    /// the corpus.
    static func launch(_ test: String) throws -> SurfJournalApp? {
        guard let corpus = try Fixtures.requireCorpus(test) else { return nil }
        let directory = try Fixtures.temporaryDirectory().path
        let coreDataStack = try CoreDataStack(
            modelName: "SurfJournalModel", modelBundle: corpus.appendingPathComponent(modelBundle).path,
            seedStore: corpus.appendingPathComponent(seedStore).path, directory: directory)
        let list = try JournalListViewController(coreDataStack: coreDataStack, exportDirectory: directory)
        return SurfJournalApp(coreDataStack: coreDataStack, list: list, storePath: directory + "/SurfJournalModel.sqlite")
    }
}
