import Foundation

/// The parts of `../shared/corpus` the model-input tests use: model files, stores, and
/// the store–model pairings recorded in `MANIFEST.tsv`.
enum ModelIOCorpus {
    /// Every file under `models/` with this name (`contents`, `elements`), sorted.
    static func modelFiles(named name: String, in corpus: URL) -> [String] {
        files(under: corpus.appendingPathComponent("models")).filter { ($0 as NSString).lastPathComponent == name }
    }

    /// Every `.xcdatamodeld` bundle under `models/`, sorted.
    static func bundles(in corpus: URL) -> [String] {
        let root = corpus.appendingPathComponent("models").path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") { found.append((root as NSString).appendingPathComponent(relative)) }
        }
        return found.sorted()
    }

    /// Every SQLite store under `stores/` (not `_not_coredata`, not `-wal`/`-shm`/`-journal`).
    static func stores(in corpus: URL) -> [String] {
        files(under: corpus.appendingPathComponent("stores")).filter { path in
            !path.contains("/_not_coredata/") && !["-wal", "-shm", "-journal"].contains { path.hasSuffix($0) }
                && (FileManager.default.contents(atPath: path)?.prefix(16) == Data("SQLite format 3\0".utf8))
        }
    }

    /// Store path → the `.xcdatamodel` folders the manifest pairs it with (store rows say
    /// `model: MATCH <folder>`, model rows say `paired store(s): <stores>`). Only pairs whose
    /// files are all present are listed.
    static func pairs(in corpus: URL) -> [String: Set<String>] {
        guard let text = try? String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [:] }
        var result: [String: Set<String>] = [:]
        func add(store: String, model: String) {
            let storePath = corpus.appendingPathComponent(store).path
            let modelPath = corpus.appendingPathComponent(model).path
            guard FileManager.default.fileExists(atPath: storePath),
                FileManager.default.fileExists(atPath: (modelPath as NSString).appendingPathComponent("contents"))
            else { return }
            result[storePath, default: []].insert(modelPath)
        }
        // The manifest has CRLF line ends; "\r\n" is one Character, so split on isNewline.
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 7 else { continue }
            let (local, kind, notes) = (columns[0], columns[4], columns[6])
            if kind == "store", let range = notes.range(of: "model: MATCH ") {
                var rest = String(notes[range.upperBound...])
                if rest.hasPrefix("(") { rest = String(rest.drop { $0 != ")" }.dropFirst().drop { $0 == " " }) }
                for candidate in rest.components(separatedBy: " OR ") {
                    guard let end = candidate.range(of: ".xcdatamodel") else { continue }
                    add(store: local, model: String(candidate[..<end.upperBound]))
                }
            }
            if kind == "model", local.hasSuffix("/contents"), let range = notes.range(of: "paired store(s): ") {
                let list = notes[range.upperBound...].prefix { $0 != "\"" && $0 != "|" }
                for store in list.components(separatedBy: ", ") {
                    let trimmed = store.trimmingCharacters(in: .whitespaces)
                    if !trimmed.isEmpty { add(store: trimmed, model: (local as NSString).deletingLastPathComponent) }
                }
            }
        }
        return result
    }

    /// A path relative to the corpus, for readable messages.
    static func relative(_ path: String, to corpus: URL) -> String {
        path.hasPrefix(corpus.path + "/") ? String(path.dropFirst(corpus.path.count + 1)) : path
    }

    private static func files(under root: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = root.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { found.append(path) }
        }
        return found.sorted()
    }
}
