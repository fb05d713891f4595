import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// Every command's argument declaration, walked: the lines it describes are accepted by
/// the command and completed word by word; its usage line is the one `.help`, `.help CMD`
/// and the manual show; and every usage error the command throws, for too few, too many or
/// malformed arguments, is the one written from the declaration.
@Suite struct CommandDeclarationTests {
    static let commands = Shell(output: { _ in }, diagnostics: { _ in }).commands

    // MARK: - Lines a declaration describes

    /// A word of a sample line, and whether the declaration has it as a literal.
    struct SampleWord {
        var text: String
        var literal: Bool
        var placeholder: Placeholder?
        /// Whether the word is in clauses the command reads itself (`fetch`'s `limit N`).
        var inClauses = false
        /// The option whose value the word is, if it is one (errors name it: `--depth N`).
        var option: String? = nil

        /// What an error about the word's value calls it.
        var label: String { [option, placeholder?.name].compactMap { $0 }.joined(separator: " ") }
    }

    /// A value for a placeholder that the BookStore example makes sense of.
    static func sample(_ placeholder: Placeholder) -> String {
        switch placeholder.kind {
        case .word: "w"
        case .entity, .entityKeyPath: "Book"
        case .table: "Z_PRIMARYKEY"
        case .object: "Book/p1"
        case .keyPath: "title"
        case .assignment: "title=X"
        case .file: "sample.txt"
        case .command: ".rows"
        case .mode: "csv"
        case .parameter: "p"
        case .wholeNumber(let from, _): String(from)
        case .text: "some text"
        case .predicate: "price > 1"
        }
    }

    /// Lines the elements describe: each optional part left out, then each taken; each
    /// alternative in turn; repetitions once, then twice (with their separator).
    static func lines(_ elements: [ArgumentElement]) -> [[SampleWord]] {
        var lines: [[SampleWord]] = []
        for taking in [false, true] {
            for alternative in 0..<4 {
                let line = sampleLine(elements, taking: taking, alternative: alternative)
                if !lines.contains(where: { $0.map(\.text) == line.map(\.text) }) { lines.append(line) }
            }
        }
        return lines
    }

    static func sampleLine(_ elements: [ArgumentElement], taking: Bool, alternative: Int) -> [SampleWord] {
        elements.flatMap { element -> [SampleWord] in
            switch element {
            case .word(let choices):
                switch choices[min(alternative, choices.count - 1)] {
                case .literal(let word, _): return [SampleWord(text: word, literal: true)]
                case .placeholder(let placeholder): return [SampleWord(text: sample(placeholder), literal: false, placeholder: placeholder)]
                }
            case .optional(let inner):
                return taking ? sampleLine(inner, taking: taking, alternative: alternative) : []
            case .oneOf(let alternatives):
                return sampleLine(alternatives[min(alternative, alternatives.count - 1)], taking: taking, alternative: alternative)
            case .repeated(let inner, let separator):
                let once = sampleLine(inner, taking: taking, alternative: alternative)
                guard taking else { return once }
                return once + (separator.map { [SampleWord(text: $0, literal: true)] } ?? []) + once
            case .flag(let flag):
                return taking ? [SampleWord(text: flag, literal: true)] : []
            case .option(let option, let value):
                return taking ? [SampleWord(text: option, literal: true), SampleWord(text: sample(value), literal: false, placeholder: value, option: option)] : []
            case .requiredFlag(let flag):
                return [SampleWord(text: flag, literal: true)]
            case .requiredOption(let option, let value):
                return [SampleWord(text: option, literal: true), SampleWord(text: sample(value), literal: false, placeholder: value, option: option)]
            case .repeatableOption(let option, let value):
                let once = [SampleWord(text: option, literal: true), SampleWord(text: sample(value), literal: false, placeholder: value, option: option)]
                return taking ? once + once : []
            case .clauses(_, let grammar):
                return sampleLine(grammar, taking: taking, alternative: alternative).map {
                    var word = $0
                    word.inClauses = true
                    return word
                }
            }
        }
    }

    /// Runs `line` in a shell of its own (writes allowed) and returns its error, if any.
    static func failure(_ line: String) throws -> String? {
        let harness = try ShellHarness(write: true)
        do {
            try harness.shell.execute(line)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Tests

    /// The command accepts every line its declaration describes: it may fail on the
    /// sample values (no such file), never with a usage error.
    @Test(arguments: commands.map(\.name)) func acceptsEveryLineItDeclares(name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name })
        for line in Self.lines(command.arguments.elements) {
            let text = ([name] + line.map(\.text)).joined(separator: " ")
            if let message = try Self.failure(text) {
                #expect(!message.hasPrefix("usage:"), "\(text): \(message)")
            }
        }
    }

    /// Too few, too many and malformed arguments fail with the usage written from the
    /// declaration, and whole numbers out of range with the placeholder's requirement.
    @Test(arguments: commands.map(\.name)) func usageErrorsAreTheDeclaredOne(name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name })
        let usage = "usage: \(command.usage)"
        func expectUsage(_ line: String) throws {
            let message = try Self.failure(line)
            #expect(message == usage, "\(line)")
        }
        // The declaration's own error for a line: the usage, or a whole number that does not fit.
        func declaredError(_ line: String) throws -> String? {
            let text = Substring(line).dropFirst(name.count).drop(while: \.isWhitespace)
            do {
                _ = try ParsedArguments(try CommandLineSplitter.split(text), text: text, command: name, syntax: command.arguments)
                return nil
            } catch {
                #expect(error.message == usage || error.message.hasPrefix("\(name): "), "\(line): \(error.message)")
                return error.message
            }
        }
        // Too few: the declaration needs words (every line it describes has some).
        if Self.lines(command.arguments.elements).allSatisfy({ !$0.isEmpty }) { try expectUsage(name) }
        for line in Self.lines(command.arguments.elements) {
            let words = line.map(\.text)
            // Too many: one word past a declaration that cannot take it.
            // Too many, too few (the last word left out), a literal misspelt: the
            // declaration's error, or nothing when it still fits; the command says the same.
            var variants = [([name] + words + ["surplus"]).joined(separator: " ")]
            if !words.isEmpty { variants.append(([name] + words.dropLast()).joined(separator: " ")) }
            for (i, word) in line.enumerated() where word.literal && word.text != "," {
                var malformed = words
                malformed[i] = "bogus" + word.text
                variants.append(([name] + malformed).joined(separator: " "))
            }
            for variant in variants {
                let failure = try Self.failure(variant)
                if let declared = try declaredError(variant) {
                    #expect(failure == declared, "\(variant)")
                } else if let failure, failure.contains("usage:") {
                    // Clauses a command reads itself (`fetch Book Page`) fail the same way.
                    #expect(failure == usage, "\(variant): \(failure)")
                }
            }
            for (i, word) in line.enumerated() where !word.inClauses {
                var malformed = words
                if let placeholder = word.placeholder, case .wholeNumber = placeholder.kind, let requirement = placeholder.requirement(for: "x") {
                    malformed[i] = "x"
                    let message = try Self.failure(([name] + malformed).joined(separator: " "))
                    #expect(message == "\(name): \(word.label) must be \(requirement), not x")
                }
            }
        }
        // Any error a malformed line gets that speaks of usage is the declared usage.
        for line in ["\(name) --bogus", "\(name) a b c d e f g", "\(name) \"\"", "\(name) , ,"] {
            if let message = try Self.failure(line), message.hasPrefix("usage") || message.contains("usage:") {
                #expect(message == usage, "\(line): \(message)")
            }
        }
    }

    /// The usage line is the one `.help`, `.help CMD` and the manual show, and completion
    /// offers each word of every line the declaration describes where it stands.
    @Test(arguments: commands.map(\.name)) func helpManualAndCompletionAgree(name: String) throws {
        let harness = try ShellHarness()
        let command = try #require(harness.shell.command(named: name))
        let usage = command.usage
        #expect(usage == command.arguments.usage(of: name))
        #expect(try harness.output(of: ".help \(name)").hasPrefix("usage: \(usage)\n" + TextWrapping.wrap(command.summary, indent: "  ")))
        // Wrapped lines joined again: a long usage is wrapped on lines of its own.
        let listing = try harness.output(of: ".help").replacingOccurrences(of: "\n +", with: " ", options: .regularExpression)
        #expect(listing.split(separator: "\n").contains { $0.hasPrefix(usage + " ") })
        let manual = try ManualTests.manual()
        #expect(manual.contains(".SS \"\(ManualPage.escape(usage, inQuotes: true))\"\n"))
        let completer = Completer(shell: harness.shell)
        for line in Self.lines(command.arguments.elements) {
            var typed = name + " "
            for word in line {
                let expected = ArgumentExpectations(command.arguments, after: try CommandLineSplitter.words(Substring(typed)).dropFirst().map { $0 })
                // A predicate takes the rest of the line: its words are the predicate's.
                if expected.words.contains(where: { $0.restOfLineFrom != nil && $0.restOfLineFrom! < typed.split(separator: " ").count - 1 }) { break }
                if word.literal, word.text != "," {
                    #expect(usage.contains(word.text), "\(word.text) is not in \(usage)")
                    let offered = completer.complete(typed + String(word.text.prefix(1))).candidates.map(\.text)
                    #expect(offered.contains(word.text), "\(typed)… does not offer \(word.text)")
                } else if let placeholder = word.placeholder {
                    #expect(usage.contains(placeholder.name), "\(placeholder.name) is not in \(usage)")
                    #expect(expected.words.contains { $0.word == .placeholder(placeholder) || $0.restOfLineFrom != nil }, "\(typed)… does not expect \(placeholder.name)")
                }
                typed += word.text + " "
            }
        }
    }

    /// A repeated argument or a rest of the line takes any number of words: a state of
    /// the reading does not grow with them, and nothing is freed one link at a time (a
    /// chain of 1.5 million readings once overflowed the stack as it was freed).
    @Test func longLinesAreReadWhole() throws {
        let harness = try ShellHarness()
        let words = (1...100_000).map(String.init)
        #expect(try harness.output(of: ".print " + words.joined(separator: " ")) == words.joined(separator: " ") + "\n")
        try harness.shell.execute(".parameter set long " + words.joined(separator: " "))
        #expect(harness.shell.parameters.all.first?.text == words.joined(separator: " "))
        let objects = (1...1_000).map { "Book/p\($0)" }.joined(separator: " ")
        // Every word is read: the first object the store lacks is named.
        let failure = try #require(try Self.failure("reload " + objects))
        #expect(failure.contains("p4") && !failure.hasPrefix("usage:"), "\(failure)")
    }

    /// The usage texts the declarations changed: each said something the command did not do.
    @Test func correctedUsageLines() throws {
        let usage = Dictionary(uniqueKeysWithValues: Self.commands.map { ($0.name, $0.usage) })
        #expect(usage["fetch"] == "fetch ENTITY [select [distinct] ITEM, …] [where PREDICATE] [group by KEY, …] [having PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]")
        #expect(usage["count"] == "count ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]")
        #expect(usage[".headers"] == ".headers [on|off]")
        #expect(usage[".parameter"] == ".parameter [set NAME VALUE | unset NAME | list | clear]")
        // With no argument these toggle, and `.parameter` lists.
        let harness = try ShellHarness()
        harness.shell.settings.headers = true
        #expect(try harness.output(of: ".parameter set p 1").isEmpty)
        #expect(try harness.output(of: ".parameter") == (try harness.output(of: ".parameter list")))
        harness.run([".headers", ".timer", ".echo", ".bail"])
        #expect(!harness.shell.settings.headers && harness.shell.options.timer && harness.shell.options.echo && !harness.shell.options.bail)
        // `count` takes a sort clause (it checks its keys).
        #expect(throws: FetchError.self) { try harness.shell.execute("count Book sort nosuch") }
    }
}
