import Foundation

/// Lines of a page to put in place of others: a command's output as it ran.
struct Replacement {
    var lines: Range<Int>
    var with: [String]
}

/// A Markdown page of the documentation (README.md, docs/*.md) read as the examples it holds.
/// Each fenced block is one of:
///
/// - ```` ```console ````: a shell transcript. Each `$ ` line is a command (going on over the
///   lines after one that ends in `\` or `|`), and the lines up to the next `$ ` line are
///   what it prints, standard output and error together.
/// - ```` ```console terminal ````: a session at a terminal. The first line is
///   `$ graphstore …`; each later line that starts with a prompt (`BookStore> `,
///   `BookStore*> `, `      ...> `) is typed there, `^D` standing for Ctrl-D; the other
///   lines are what the screen shows.
/// - ```` ```swift ````: Swift, compiled with the page's other Swift blocks. A first line
///   `// given: name: Type, …` makes it a fragment, compiled as a function of those values.
/// - ```` ```output ````: what the Swift block before it prints when it runs.
///
/// A block of any kind is not run when the line before its fence is
/// `<!-- not run: REASON -->`; a block of no kind above must be so marked.
struct DocumentPage {
    struct Block {
        enum Kind: Equatable {
            case shell, terminal, swift, output, other
        }

        /// The fence's info string (`console`, `swift`, `text`, …).
        var info: String
        var kind: Kind
        /// The lines between the fences.
        var body: [String]
        /// The index in the page's lines of the first line of `body`.
        var start: Int
        /// Why the block is not run, from the `<!-- not run: REASON -->` before it.
        var notRun: String?

        /// Where the block is, for messages: `docs/scripts.md:42`.
        func location(in page: DocumentPage) -> String { "\(page.name):\(start)" }
    }

    /// A command of a shell transcript and what it prints.
    struct Command {
        var text: String
        var output: String
        /// The page's lines the output occupies.
        var outputLines: Range<Int>
    }

    /// The page's path from the package root.
    var name: String
    var lines: [String]
    var blocks: [Block]

    init(_ name: String) throws {
        self.name = name
        let text = try String(contentsOfFile: GraphStoreBinary.packageRoot.appendingPathComponent(name).path, encoding: .utf8)
        lines = text.components(separatedBy: "\n")
        blocks = Self.blocks(in: lines)
    }

    /// Puts the replacements in place and writes the page back (`GRAPHSTORE_RECORD_GOLDEN=1`).
    mutating func write(_ replacements: [Replacement]) throws {
        // From the last, so that rewriting one does not move the others.
        for replacement in replacements.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
            lines.replaceSubrange(replacement.lines, with: replacement.with)
        }
        try lines.joined(separator: "\n").write(toFile: GraphStoreBinary.packageRoot.appendingPathComponent(name).path, atomically: true, encoding: .utf8)
    }

    static func blocks(in lines: [String]) -> [Block] {
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].hasPrefix("```") else { continue }
            let info = lines[index].dropFirst(3).trimmingCharacters(in: .whitespaces)
            let start = index + 1
            var end = start
            while end < lines.count, !lines[end].hasPrefix("```") { end += 1 }
            let before = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let notRun = before.wholeMatch(of: /<!-- not run: (.+) -->/).map { String($0.1) }
            blocks.append(Block(info: info, kind: kind(of: info), body: Array(lines[start..<end]), start: start, notRun: notRun))
            index = end
        }
        return blocks
    }

    static func kind(of info: String) -> Block.Kind {
        switch info {
        case "console": .shell
        case "console terminal": .terminal
        case "swift": .swift
        case "output": .output
        default: .other
        }
    }

    /// The page's lines outside its fenced blocks.
    var prose: [String] {
        var fenced = IndexSet()
        for block in blocks { fenced.insert(integersIn: (block.start - 1)...(block.start + block.body.count)) }
        return lines.indices.filter { !fenced.contains($0) }.map { lines[$0] }
    }

    /// The anchor GitHub gives a heading line (`## SQL at the prompt` → `sql-at-the-prompt`):
    /// lowercased, without punctuation (code spans' backquotes included), spaces as hyphens.
    static func anchor(ofHeading line: String) -> String? {
        guard let heading = line.wholeMatch(of: /#+ (.+)/)?.1 else { return nil }
        let kept = heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
        return kept.replacingOccurrences(of: " ", with: "-")
    }

    /// The blocks that are run: every block of the kinds above but the ones marked not run.
    var runBlocks: [Block] { blocks.filter { $0.notRun == nil && $0.kind != .other } }

    /// The commands of a shell transcript.
    func commands(of block: Block) -> [Command] {
        var commands: [Command] = []
        var index = 0
        while index < block.body.count {
            guard block.body[index].hasPrefix("$ ") else { index += 1; continue }
            var text = [String(block.body[index].dropFirst(2))]
            index += 1
            while let last = text.last, last.hasSuffix("\\") || last.hasSuffix("|"), index < block.body.count {
                text.append(block.body[index])
                index += 1
            }
            let outputStart = index
            while index < block.body.count, !block.body[index].hasPrefix("$ ") { index += 1 }
            let output = block.body[outputStart..<index].map { $0 + "\n" }.joined()
            commands.append(Command(text: text.joined(separator: "\n"), output: output, outputLines: (block.start + outputStart)..<(block.start + index)))
        }
        return commands
    }
}
