import Foundation
import GraphStore

/// `import ENTITY FILE [ENTITY FILE …] [--key Entity=attr,…]` and `export ENTITY FILE [--key …]`:
/// a seed's objects from and to text (CSV or JSON, by the file's extension).
enum ImportExportCommands {
    static let entity = Placeholder("ENTITY", .entity)
    static let file = Placeholder("FILE", .file)
    static let keyOption = ArgumentElement.option("--key", Placeholder("ENTITY=ATTR", .word))
    static let idsFlag = ArgumentElement.flag("--ids")

    static let importCommand = ShellCommand(
        "import", arguments: [keyOption, idsFlag, .repeated([.value(entity), .value(file)])],
        summary: "load objects from CSV (header: property names) or JSON (an array of objects), typed by the model, all saved or none",
        example: "import Book books.csv --key BookCategory=name",
        details: """
            FILE is JSON when its name ends in .json, else CSV. A column (or JSON key) is an attribute \
            or a relationship; a relationship names its destinations by their natural key, given with \
            --key Entity=attribute (several comma-separated; an entity with a uniqueness constraint needs \
            none; a key of several parts joins them with +, a to-one part standing for its destination's \
            key, and is written as a JSON array of the parts): a to-one by one key (or, in JSON, a nested \
            object holding it), a \
            to-many by a list of keys (in CSV separated by |). An empty CSV cell is no value; a quoted empty one ("") is the empty string. Each \
            object is validated as it is read; a bad one names the file, its line and the property, \
            and nothing of the file is kept. An object whose own natural key is already in the store \
            is refused. The file is saved in one transaction; the store must have no unsaved changes. \
            Several ENTITY FILE pairs load in one transaction: every object of every file is made before \
            any relationship is set, so files (and records of one file) may name each other's objects in \
            any order, cycles included, and a bad record in any file keeps nothing of any. \
            With --ids, objects of an entity without a key are named by object ID as export --ids wrote \
            them: each new object takes the number in its @id column (Core Data always numbers new \
            objects itself; here the store must not have that object ID yet, as in a store made with \
            --create), and p3 in a relationship is the object numbered 3.
            """,
        writes: true
    ) { shell, arguments in
        let context = try shell.requireContext()
        let keys = try naturalKeys(arguments, shell: shell)
        let names = arguments.words(entity)
        let files = arguments.words(file)
        do {
            var loads: [SeedLoad] = []
            for (typed, shownAs) in zip(names, files) {
                let name = try shell.mapping(typed).name
                let records = try SeedFile.read(shell.resolve(path: shownAs), keys: keys, entity: name, model: context.store.model)
                loads.append(SeedLoad(entity: name, file: shownAs, records: records))
            }
            let total = loads.reduce(0) { $0 + $1.records.count }
            let showsProgress = shell.terminal != nil
            let counts = try SeedImporter(context: context, keys: keys).load(loads) { done in
                if showsProgress, done < total { shell.diagnostics("\rimport: \(done) of \(total)") }
            }
            // The progress line is cleared before the counts are printed.
            if showsProgress, total >= 1000 { shell.diagnostics("\r\u{1B}[K") }
            for (load, count) in zip(loads, counts) {
                shell.output("imported \(count) \(load.entity) object\(count == 1 ? "" : "s") from \(load.file)\n")
            }
        } catch let error as ShellError {
            throw error
        } catch {
            throw ShellError("import: \(error)")
        }
    }

    static let exportCommand = ShellCommand(
        "export", arguments: [keyOption, idsFlag, .value(entity), .value(file)],
        summary: "write an entity's objects to CSV or JSON (as import reads them); relationships by natural key",
        example: "export Book books.json --key BookCategory=name",
        details: """
            Every stored attribute is written, and each relationship whose destination has a natural key \
            (--key Entity=attribute, as for import) as that key. A relationship whose destination has no \
            key cannot be written: a warning names it and says which --key would write it (--strict makes \
            that exit status 6). With --ids, an entity without a key is written with an @id column, its \
            objects' object ID numbers (p3), and relationships to its objects by those (import --ids reads \
            them back into a new store with the same object IDs; the objects must be saved). Objects are \
            ordered by their own natural key when they have one. Unsaved changes are written as they are \
            in the session. FILE may not be the open store's files nor the --model file in use.
            """
    ) { shell, arguments in
        let (context, name, path, keys) = try target(arguments, shell: shell)
        try shell.checkNotStoreFile(path, shownAs: try arguments.word(file))
        if case .file(let modelPath) = context.store.modelOrigin, StoreFiles(storePath: modelPath).role(of: path) == .store
            || StoreFiles.resolve(path).hasPrefix(StoreFiles.resolve(modelPath) + "/")
        {
            throw ShellError("cannot write \(try arguments.word(file)): it is the model file in use, \(modelPath)")
        }
        do {
            let exporter = SeedExporter(context: context, keys: keys)
            let (columns, records) = try exporter.records(of: name)
            try SeedFile.write(records, columns: columns, to: path, entity: name, model: context.store.model)
            for (relationship, reason) in exporter.leftOut(of: name) {
                shell.diagnostics("export: warning: \(name).\(relationship) is not written: \(reason)\n")
                shell.state.hasWarned = true
            }
            shell.output("exported \(records.count) \(name) object\(records.count == 1 ? "" : "s") to \(try arguments.word(file))\n")
        } catch {
            throw ShellError("export: \(error)")
        }
    }

    /// What both commands read from their arguments: the context, the entity's name, the
    /// file's path and the natural keys.
    static func target(_ arguments: ParsedArguments, shell: Shell) throws -> (ManagedObjectContext, String, String, NaturalKeys) {
        (try shell.requireContext(), try shell.mapping(try arguments.word(entity)).name,
         shell.resolve(path: try arguments.word(file)), try naturalKeys(arguments, shell: shell))
    }

    /// The `--key` option's natural keys.
    static func naturalKeys(_ arguments: ParsedArguments, shell: Shell) throws -> NaturalKeys {
        do {
            var keys = try NaturalKeys(parsing: arguments.value(of: "--key").map { [$0] } ?? [], model: try shell.requireStore().model)
            keys.keepsObjectIDs = arguments.has("--ids")
            return keys
        } catch let error as NaturalKeyError {
            throw ShellError("\(error)", exitCode: ExitStatus.usage)
        }
    }
}
