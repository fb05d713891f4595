extension String {
    /// The string without leading and trailing whitespace (newlines included).
    ///
    /// Pure Swift: Foundation's `trimmingCharacters(in:)` bridges through NSString, whose
    /// first use costs more than a whole `graphstore STORE .entities` should.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
