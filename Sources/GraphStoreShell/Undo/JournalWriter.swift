import Foundation

/// Records undo groups as REPL command lines, as they are made: a group of one line is
/// the line; a longer (or named) group is `begin [NAME]`, its lines, `end`. Saves,
/// rollbacks, undos and redos are lines of their own. The file is a script: `replay`
/// applies it group by group, and `graphstore --write` can also run it directly.
///
/// ```
/// -- graphstore journal of BookStore.sqlite
/// insert Book title="Dune" price=18.5
/// begin two books
/// insert Book title="A"
/// insert Book title="B"
/// end
/// undo 1
/// save
/// ```
final class JournalWriter {
    /// The journal file, as typed.
    let path: String
    /// The journal file's path, resolved against the shell's directory.
    let resolvedPath: String
    private let descriptor: Int32
    /// Groups made since the journal started that are on the undo stack: an undo deeper
    /// than this takes back groups the journal does not hold, which a replay cannot do.
    private(set) var groupsOnStack = 0

    /// Starts a journal (emptying the file at `resolvedPath`, or creating it) with a header
    /// comment.
    ///
    /// The file is opened and written in place, as `.output` writes: a device stays a
    /// device and a link's target is what is written. (Foundation's `createFile` replaced
    /// the file by renaming a new one over it — as root, even `/dev/full`.)
    init(path: String, resolvedPath: String, storeName: String) throws {
        let descriptor = open(resolvedPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ShellError("cannot write the journal \(path): \(String(cString: strerror(errno)))") }
        self.path = path
        self.resolvedPath = resolvedPath
        self.descriptor = descriptor
        try append("-- graphstore journal of \(storeName)\n")
    }

    deinit { close(descriptor) }

    /// Writes a group.
    func write(_ block: ShellUndoState.Block) throws {
        if block.name == nil, block.lines.count == 1 {
            try append(block.lines[0] + "\n")
        } else {
            try append((["begin" + (block.name.map { " " + $0 } ?? "")] + block.lines + ["end"]).joined(separator: "\n") + "\n")
        }
        groupsOnStack += 1
    }

    /// Writes an undo or redo line; returns false when the undo reaches before the journal.
    func write(undo count: Int, redo: Bool) throws -> Bool {
        try append("\(redo ? "redo" : "undo") \(count)\n")
        if redo {
            groupsOnStack += count
            return true
        }
        groupsOnStack -= count
        return groupsOnStack >= 0
    }

    /// Writes `text` whole, at once (a journal is written as groups are made, so that a
    /// session that ends abruptly leaves every group it made); a failure fails the command.
    private func append(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                throw ShellError("cannot write the journal \(path): \(String(cString: strerror(written < 0 ? errno : EIO)))")
            }
        }
    }
}
