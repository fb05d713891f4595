/// Wraps prose at word boundaries, for `.help` and `--help`.
enum TextWrapping {
    /// `text` wrapped to `width` columns, each line starting with `indent` (the first with
    /// `first`, when given: a hanging indent); line breaks in `text` are kept.
    static func wrap(_ text: String, width: Int = 78, indent: String = "", first: String? = nil) -> String {
        var out = ""
        var lead = first ?? indent
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = lead
            var isEmpty = true
            for word in paragraph.split(separator: " ") {
                if !isEmpty, DisplayWidth.of(line) + 1 + DisplayWidth.of(String(word)) > width {
                    out += line + "\n"
                    line = indent
                    isEmpty = true
                }
                line += (isEmpty ? "" : " ") + word
                isEmpty = false
            }
            out += line + "\n"
            lead = indent
        }
        return out
    }
}
