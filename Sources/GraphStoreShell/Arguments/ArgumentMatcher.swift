/// Reads typed words against a command's ``ArgumentSyntax``: every way the words so far
/// can fit the declaration at once (a handful of states), one word at a time. Validation
/// keeps the first way that fits the whole line; completion asks what may come next.
///
/// A word that can be read as a literal where it stands is read as one (`validate where
/// …`: `where` starts the predicate, it is not an entity named "where"). Flags and options
/// are taken out of the words first, wherever they are typed.
struct ArgumentMatcher {
    /// Validation hands `clauses` to the command unread; completion reads their grammar.
    enum Mode { case validating, completing }

    /// What may come next.
    enum Head {
        /// A word of the declaration.
        case choice(WordChoice)
        /// The separator between repetitions (`,`).
        case separator(String)
        /// The start of a command's own clauses (validation only).
        case clauses(Placeholder)
    }

    /// One way the words so far fit.
    struct State {
        /// What is still to come, innermost last.
        var stack: [Frame]
        /// The state's last reading in ``readings``, if any.
        var lastReading: Int?
        /// The placeholder that takes the rest of the line, and the word it starts at.
        var restOfLine: (placeholder: Placeholder, word: Int)?
        /// The entity named so far (for key paths after it).
        var entity: String?
    }

    /// Every word read as a placeholder or a literal, by any state: the placeholder's
    /// name or the literal word, the placeholder, the word's position, and the reading its
    /// state made before. A state keeps only the position of its last reading, so that it
    /// is copied in constant time however many words it has read (and nothing is freed
    /// one link at a time).
    final class Readings {
        private var entries: [(key: String, placeholder: Placeholder?, word: Int, previous: Int?)] = []

        /// Records a reading after `previous`; returns its position.
        func add(_ key: String, _ placeholder: Placeholder?, word: Int, after previous: Int?) -> Int {
            entries.append((key, placeholder, word, previous))
            return entries.count - 1
        }

        /// The readings of the state whose last reading is `last`, first first.
        func all(endingAt last: Int?) -> [(key: String, placeholder: Placeholder?, word: Int)] {
            var readings: [(key: String, placeholder: Placeholder?, word: Int)] = []
            var current = last
            while let index = current {
                let entry = entries[index]
                readings.append((entry.key, entry.placeholder, entry.word))
                current = entry.previous
            }
            return readings.reversed()
        }
    }

    /// What is still to come: elements, one element, or, after an item of a repetition,
    /// another item (after the separator when there is one) or nothing.
    enum Frame {
        case elements(ArraySlice<ArgumentElement>)
        case element(ArgumentElement)
        case another(ArgumentElement, separator: String?)
    }

    let mode: Mode
    /// What the states read.
    let readings = Readings()

    /// The states before any word.
    func start(_ syntax: ArgumentSyntax) -> [State] {
        [State(stack: [.elements(syntax.elements[...])])]
    }

    /// The states after the word at `index`, in order of preference.
    func advance(_ states: [State], word: String, at index: Int) -> [State] {
        // Each next state, and whether it read the word as a placeholder.
        var next: [(state: State, asValue: Bool)] = []
        for state in states {
            if state.restOfLine != nil {
                next.append((state, false))
                continue
            }
            for (head, after) in heads(state) {
                var after = after
                switch head {
                case .separator(let separator):
                    if word == separator { next.append((after, false)) }
                case .clauses(let placeholder):
                    after.restOfLine = (placeholder, index)
                    after.lastReading = readings.add(placeholder.name, placeholder, word: index, after: after.lastReading)
                    next.append((after, true))
                case .choice(let choice):
                    if let literal = choice.literalMatch(word) {
                        after.lastReading = readings.add(literal, nil, word: index, after: after.lastReading)
                        next.append((after, false))
                    } else if case .placeholder(let placeholder) = choice {
                        after.lastReading = readings.add(placeholder.name, placeholder, word: index, after: after.lastReading)
                        if placeholder.takesRestOfLine { after.restOfLine = (placeholder, index) }
                        switch placeholder.kind {
                        case .entity, .entityKeyPath, .object: after.entity = String(word.prefix { $0 != "." && $0 != "/" })
                        default: break
                        }
                        next.append((after, true))
                    }
                }
            }
        }
        // A word that a literal can take is not a value.
        let literalFits = next.contains { !$0.asValue && $0.state.restOfLine == nil }
        return next.compactMap { literalFits && $0.asValue ? nil : $0.state }
    }

    /// Every word that can come next from `state`, each with the state after it.
    func heads(_ state: State) -> [(Head, State)] {
        var found: [(Head, State)] = []
        collectHeads(state, depth: 0, into: &found)
        return found
    }

    /// The heads of the frame on top of the stack. Frames are pushed only when something
    /// is in them, so that reading many words keeps a stack of the same height.
    private func collectHeads(_ state: State, depth: Int, into found: inout [(Head, State)]) {
        // Declarations nest a few levels; the bound stops a repetition of something that
        // may be empty from going round for ever.
        guard depth < 32 else { return }
        var rest = state
        guard let frame = rest.stack.popLast() else { return }
        switch frame {
        case .another(let repetition, let separator):
            collectHeads(rest, depth: depth + 1, into: &found)
            rest.stack.append(.element(repetition))
            if let separator {
                found.append((.separator(separator), rest))
            } else {
                collectHeads(rest, depth: depth + 1, into: &found)
            }
        case .element(let element):
            expand(element, rest, depth: depth, into: &found)
        case .elements(let elements):
            guard let element = elements.first else { return collectHeads(rest, depth: depth + 1, into: &found) }
            if elements.count > 1 { rest.stack.append(.elements(elements.dropFirst())) }
            expand(element, rest, depth: depth, into: &found)
        }
    }

    /// The heads of `element`, with `rest` to come after it.
    private func expand(_ element: ArgumentElement, _ rest: State, depth: Int, into found: inout [(Head, State)]) {
        func then(_ frames: Frame...) -> State {
            var next = rest
            next.stack += frames
            return next
        }
        switch element {
        case .word(let choices):
            for choice in choices { found.append((.choice(choice), rest)) }
        case .optional(let elements):
            collectHeads(rest, depth: depth + 1, into: &found)
            collectHeads(then(.elements(elements[...])), depth: depth + 1, into: &found)
        case .oneOf(let alternatives):
            for alternative in alternatives { collectHeads(then(.elements(alternative[...])), depth: depth + 1, into: &found) }
        case .repeated(let elements, let separator):
            collectHeads(then(.another(element, separator: separator), .elements(elements[...])), depth: depth + 1, into: &found)
        case .flag, .option, .requiredFlag, .requiredOption, .repeatableOption:
            collectHeads(rest, depth: depth + 1, into: &found)
        case .clauses(let placeholder, let grammar):
            switch mode {
            case .validating:
                found.append((.clauses(placeholder), rest))
                collectHeads(rest, depth: depth + 1, into: &found)
            case .completing:
                collectHeads(then(.elements(grammar[...])), depth: depth + 1, into: &found)
            }
        }
    }

    /// Whether the state may end here: everything still to come can be left out.
    func canEnd(_ state: State) -> Bool {
        state.restOfLine != nil
            || state.stack.allSatisfy { frame in
                switch frame {
                case .elements(let elements): elements.allSatisfy(isOptional)
                case .element(let element): isOptional(element)
                case .another: true
                }
            }
    }

    private func isOptional(_ element: ArgumentElement) -> Bool {
        switch element {
        case .word: false
        // Flags and options are taken out before the words are read; required ones are
        // checked apart (`ParsedArguments`).
        case .optional, .flag, .option, .requiredFlag, .requiredOption, .repeatableOption: true
        case .oneOf(let alternatives): alternatives.contains { $0.allSatisfy(isOptional) }
        case .repeated(let elements, _): elements.allSatisfy(isOptional)
        case .clauses: mode == .validating
        }
    }
}

extension ArgumentMatcher {
    /// The words with the flags and options (and the options' values) taken out.
    struct FlagWords {
        /// The positions of the other words.
        var positions: [Int] = []
        /// The flags typed.
        var flags: Set<String> = []
        /// The options typed, with the position of each one's value.
        var options: [String: Int] = [:]
        /// The repeatable options typed, with the positions of their values in order.
        var repeatableOptions: [String: [Int]] = [:]
        /// The option typed last, whose value has not been typed yet.
        var awaitingValue: Placeholder?
        /// Whether a flag or option was typed twice.
        var repeated = false
    }

    /// Takes the declared flags and options out of `words`, wherever they are.
    static func takeFlags(_ words: [String], declared: [ArgumentElement]) -> FlagWords {
        var found = FlagWords()
        var index = 0
        while index < words.count {
            defer { index += 1 }
            let word = words[index]
            guard found.awaitingValue == nil else {
                found.awaitingValue = nil
                continue
            }
            for element in declared {
                switch element {
                case .flag(let flag) where flag == word, .requiredFlag(let flag) where flag == word:
                    found.repeated = found.repeated || !found.flags.insert(flag).inserted
                case .option(let option, let value) where option == word, .requiredOption(let option, let value) where option == word:
                    found.repeated = found.repeated || found.options[option] != nil
                    found.options[option] = index + 1
                    found.awaitingValue = value
                case .repeatableOption(let option, let value) where option == word:
                    found.repeatableOptions[option, default: []].append(index + 1)
                    found.awaitingValue = value
                default:
                    continue
                }
            }
            if found.awaitingValue == nil, !found.flags.contains(word) { found.positions.append(index) }
        }
        return found
    }
}
