/// Enough of a VT100/xterm to read back what a program drew: printable text, CR, LF,
/// backspace, tab, and the CSI sequences line editors use (cursor moves, erase in line and
/// display, insert and delete characters). Colours and modes are ignored; lines that
/// scroll off the top are kept, so the whole session can be read.
struct ScreenModel {
    let columns: Int
    let rows: Int
    private(set) var lines: [[Character]] = [[]]
    private(set) var row = 0
    private(set) var column = 0
    private var pending: [UInt8] = []
    private var escape: [UInt8]?

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The screen's first line within `lines` (earlier lines have scrolled away).
    private var top: Int { max(0, lines.count - rows) }

    /// Every line so far, trailing spaces removed.
    var text: [String] {
        lines.map { String($0).replacingOccurrences(of: "\u{0}", with: " ").trimmingTrailingSpaces() }
    }

    /// The line the cursor is on.
    var currentLine: String { text[row] }

    mutating func feed(_ bytes: [UInt8]) {
        for byte in bytes { feed(byte) }
    }

    private mutating func feed(_ byte: UInt8) {
        if var sequence = escape {
            sequence.append(byte)
            escape = sequence
            if sequence.count == 2, sequence[1] != UInt8(ascii: "["), sequence[1] != UInt8(ascii: "]") {
                escape = nil  // ESC x: keypad modes, charset choices — nothing drawn.
            } else if sequence[1] == UInt8(ascii: "]") {
                if byte == 0x07 || (byte == UInt8(ascii: "\\") && sequence.dropLast().last == 0x1b) { escape = nil }
            } else if sequence.count > 2, (0x40...0x7e).contains(byte) {
                escape = nil
                control(sequence)
            }
            return
        }
        switch byte {
        case 0x1b: escape = [byte]
        case UInt8(ascii: "\r"): column = 0
        case UInt8(ascii: "\n"): lineFeed()
        case 0x08: column = max(0, column - 1)
        case UInt8(ascii: "\t"): column = min(columns - 1, (column / 8 + 1) * 8)
        case 0x07: break
        case 0..<0x20: break
        default:
            pending.append(byte)
            let lead = pending[0]
            let length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
            if pending.count >= length {
                if let character = String(decoding: pending, as: UTF8.self).first { put(character) }
                pending = []
            }
        }
    }

    private mutating func lineFeed() {
        row += 1
        while row >= lines.count { lines.append([]) }
    }

    private mutating func put(_ character: Character) {
        if column >= columns {
            column = 0
            lineFeed()
        }
        var line = lines[row]
        while line.count < column { line.append(" ") }
        if column < line.count { line[column] = character } else { line.append(character) }
        lines[row] = line
        column += 1
    }

    private mutating func control(_ sequence: [UInt8]) {
        guard let final = sequence.last else { return }
        let body = String(decoding: sequence.dropFirst(2).dropLast(), as: UTF8.self)
        if body.hasPrefix("?") || body.hasPrefix(">") { return }  // private modes
        let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let n = max(1, numbers.first ?? 1)
        switch UnicodeScalar(final) {
        case "A": row = max(top, row - n)
        case "B":
            row += n
            while row >= lines.count { lines.append([]) }
        case "C": column = min(columns - 1, column + n)
        case "D": column = max(0, column - n)
        case "G": column = min(columns - 1, n - 1)
        case "H", "f":
            row = top + max(1, numbers.first ?? 1) - 1
            column = (numbers.count > 1 ? max(1, numbers[1]) : 1) - 1
            while row >= lines.count { lines.append([]) }
        case "K":
            let mode = numbers.first ?? 0
            var line = lines[row]
            if mode == 0, column < line.count { line.removeSubrange(column...) }
            if mode == 1 { for i in 0..<min(column + 1, line.count) { line[i] = " " } }
            if mode == 2 { line = [] }
            lines[row] = line
        case "J":
            if (numbers.first ?? 0) == 0 {
                if column < lines[row].count { lines[row].removeSubrange(column...) }
                for i in (row + 1)..<lines.count { lines[i] = [] }
            }
        case "P":
            var line = lines[row]
            if column < line.count { line.removeSubrange(column..<min(line.count, column + n)) }
            lines[row] = line
        case "@":
            var line = lines[row]
            while line.count < column { line.append(" ") }
            line.insert(contentsOf: Array(repeating: " ", count: n), at: column)
            lines[row] = line
        default:
            break  // colours (m) and anything else draw nothing
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
