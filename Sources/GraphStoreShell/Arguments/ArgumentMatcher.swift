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
        /// The words read as placeholders or literals, the last first.
        var bound = Binding.none
        /// The placeholder that takes the rest of the line, and the word it starts at.
        var restOfLine: (placeholder: Placeholder, word: Int)?
        /// The entity named so far (for key paths after it).
        var entity: String?
    }

    /// A word read as a placeholder or a literal (the placeholder's name or the literal
    /// word, the placeholder, the word's position), after those read before it: a list
    /// shared between states, so that a state is copied in constant time however many
    /// words it has read.
    indirect enum Binding {
        case none
        case word(key: String, placeholder: Placeholder?, word: Int, after: Binding)

        /// The words read, first first.
        var all: [(key: String, placeholder: Placeholder?, word: Int)] {
            var words: [(key: String, placeholder: Placeholder?, word: Int)] = []
            var current = self
            while case .word(let key, let placeholder, let word, let after) = current {
                words.append((key, placeholder, word))
                current = after
            }
            return words.reversed()
        }
    }

    /// Elements still to come, or, after an item of a repetition with a separator, the
    /// separator and another item (or nothing).
    enum Frame {
        case elements(ArraySlice<ArgumentElement>)
        case separator(String, then: ArgumentElement)
    }

    let mode: Mode

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
                    after.bound = .word(key: placeholder.name, placeholder: placeholder, word: index, after: after.bound)
                    next.append((after, true))
                case .choice(let choice):
                    if let literal = choice.literalMatch(word) {
                        after.bound = .word(key: literal, placeholder: nil, word: index, after: after.bound)
                        next.append((after, false))
                    } else if case .placeholder(let placeholder) = choice {
                        after.bound = .word(key: placeholder.name, placeholder: placeholder, word: index, after: after.bound)
                        if placeholder.takesRestOfLine { after.restOfLine = (placeholder, index) }
                        if [.entity, .entityKeyPath, .object].contains(placeholder.kind) {
                            after.entity = String(word.prefix { $0 != "." && $0 != "/" })
                        }
                        next.append((after, true))
                    }
                }
            }
        }
        // A word that a literal can take is not a value.
        let literalFits = next.contains { !$0.asValue && $0.state.restOfLine == nil }
        return next.filter { !(literalFits && $0.asValue) }.map(\.state)
    }

    /// Every word that can come next from `state`, each with the state after it.
    func heads(_ state: State, depth: Int = 0) -> [(Head, State)] {
        guard depth < 32 else { return [] }
        var rest = state
        guard let frame = rest.stack.popLast() else { return [] }
        // What is left of a frame is kept only when something is (a repetition of many
        // words then keeps a stack of the same height).
        func then(_ frames: Frame...) -> State { then(frames) }
        func then(_ frames: [Frame]) -> State {
            var next = rest
            next.stack += frames.filter { if case .elements(let elements) = $0 { !elements.isEmpty } else { true } }
            return next
        }
        switch frame {
        case .separator(let separator, let again):
            return heads(rest, depth: depth + 1) + [(.separator(separator), then(.elements([again][...])))]
        case .elements(let elements):
            guard let element = elements.first else { return heads(rest, depth: depth + 1) }
            let after = Frame.elements(elements.dropFirst())
            func inner(_ frames: Frame...) -> [(Head, State)] {
                heads(then([after] + frames), depth: depth + 1)
            }
            switch element {
            case .word(let choices):
                let next = then(after)
                return choices.map { (.choice($0), next) }
            case .optional(let elements):
                return inner() + inner(.elements(elements[...]))
            case .oneOf(let alternatives):
                return alternatives.flatMap { inner(.elements($0[...])) }
            case .repeated(let elements, let separator):
                if let separator { return inner(.separator(separator, then: element), .elements(elements[...])) }
                return inner(.elements([.optional([element])][...]), .elements(elements[...]))
            case .flag, .option:
                return inner()
            case .clauses(let placeholder, let grammar):
                switch mode {
                case .validating: return [(.clauses(placeholder), then(after))] + inner()
                case .completing: return inner(.elements(grammar[...]))
                }
            }
        }
    }

    /// Whether the state may end here: everything still to come can be left out.
    func canEnd(_ state: State) -> Bool {
        state.restOfLine != nil
            || state.stack.allSatisfy { frame in
                guard case .elements(let elements) = frame else { return true }
                return elements.allSatisfy(isOptional)
            }
    }

    private func isOptional(_ element: ArgumentElement) -> Bool {
        switch element {
        case .word: false
        case .optional, .flag, .option: true
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
                case .flag(let flag) where flag == word:
                    found.repeated = found.repeated || !found.flags.insert(flag).inserted
                case .option(let option, let value) where option == word:
                    found.repeated = found.repeated || found.options[option] != nil
                    found.options[option] = index + 1
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
