extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing whitespace (newlines included).
    ///
    /// Pure Swift: Foundation's `trimmingCharacters(in:)` bridges through NSString, whose
    /// first use costs more than a whole `graphstore STORE .entities` should.
    func trimmingWhitespace() -> String { String(trimmedSlice()) }

    /// The same, as a slice of this text: its indices still place it in the whole line.
    func trimmedSlice() -> Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
