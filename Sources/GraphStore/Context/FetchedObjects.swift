/// The objects a fetch returned, in order: a random-access collection of managed objects.
///
/// With a batch size (``FetchRequest/fetchBatchSize``) the fetch reads only keys; the
/// objects' rows are read a batch at a time, when an object of that batch is first
/// accessed. Objects are the context's own (the same instance for the same object ID).
/// If reading a batch fails, its objects are handed out as plain faults, and touching one
/// reports the error.
///
/// ```swift
/// var request = FetchRequest(entityName: "Word")
/// request.fetchBatchSize = 500
/// let words = try context.fetch(request)          // keys only
/// let first = words[0]                            // reads words 0..<500
/// let all = Array(words)                          // reads the rest, 500 at a time
/// ```
public final class FetchedObjects: RandomAccessCollection {
    /// One result: an object, or only its ID until its batch is read.
    enum Entry {
        case stored(ObjectID)
        case object(ManagedObject)

        /// A fetch result as this list keeps it.
        init(_ candidate: FetchCandidate) {
            self = candidate.object.map(Entry.object) ?? .stored(candidate.id)
        }
    }

    private let context: ManagedObjectContext
    private var entries: [Entry]
    private let batchSize: Int
    private let family: [EntityMapping]

    /// The results, collected straight from the fetch (no intermediate list of candidates).
    init(context: ManagedObjectContext, entries: [Entry], batchSize: Int, family: [EntityMapping]) {
        self.context = context
        self.entries = entries
        self.batchSize = Swift.max(batchSize, 1)
        self.family = family
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    /// The object at a position, reading its batch first if needed.
    public subscript(position: Int) -> ManagedObject {
        if case .object(let object) = entries[position] { return object }
        loadBatch(containing: position)
        switch entries[position] {
        case .object(let object): return object
        case .stored(let id): return context.registeredObject(for: id)
        }
    }

    /// The object IDs, without reading any rows.
    public var objectIDs: [ObjectID] {
        entries.map { entry in
            switch entry {
            case .stored(let id): id
            case .object(let object): object.objectID
            }
        }
    }

    /// Reads the rows of the batch holding `position` with one `Z_PK IN (…)` query and
    /// fills in its objects.
    private func loadBatch(containing position: Int) {
        let start = position - position % batchSize
        let range = start..<(start + Swift.min(batchSize, entries.count - start))
        var missing: [Int64] = []
        for i in range {
            guard case .stored(let id) = entries[i] else { continue }
            let object = context.registeredObject(for: id)
            if object.hasData {
                entries[i] = .object(object)
            } else if let key = id.primaryKey {
                missing.append(key)
            }
        }
        guard !missing.isEmpty, let rows = try? context.store.rows(withKeys: missing, family: family) else { return }
        for i in range {
            guard case .stored(let id) = entries[i], let key = id.primaryKey, let row = rows[key],
                let object = try? context.materialize(row)
            else { continue }
            entries[i] = .object(object)
        }
    }
}

extension ManagedObjectContext {
    /// The registered object for a stored ID, made as a fault if new (never fails: the ID
    /// is permanent).
    func registeredObject(for id: ObjectID) -> ManagedObject {
        if let object = registered[id] { return object }
        let object = objectClass(for: id.mapping).init(objectID: id, context: self)
        registered.insert(object, for: id)
        return object
    }
}
