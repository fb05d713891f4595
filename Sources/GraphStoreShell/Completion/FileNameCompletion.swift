import Foundation

/// File names for `.open`, `.read`, `.output`, `--model`: the entries of the directory
/// typed so far (`~` is the home directory), directories with a `/` after them, hidden
/// files only once a `.` is typed.
struct FileNameCompletion {
    /// The directory relative names are in (the working directory when nil).
    var directory: String?

    func candidates(for partial: String) -> [CompletionCandidate] {
        let slash = partial.lastIndex(of: "/")
        let typedDirectory = slash.map { String(partial[...$0]) } ?? ""
        let namePrefix = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
        var searched = typedDirectory.isEmpty ? "." : (typedDirectory as NSString).expandingTildeInPath
        if !searched.hasPrefix("/"), let directory { searched = (directory as NSString).appendingPathComponent(searched) }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: searched) else { return [] }
        return entries.sorted().compactMap { name -> CompletionCandidate? in
            guard name.hasPrefix(namePrefix), !name.hasPrefix(".") || namePrefix.hasPrefix(".") else { return nil }
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: (searched as NSString).appendingPathComponent(name), isDirectory: &isDirectory)
            return isDirectory.boolValue
                ? CompletionCandidate(typedDirectory + name + "/", display: name + "/", terminator: "")
                : CompletionCandidate(typedDirectory + name, display: name)
        }
    }
}
