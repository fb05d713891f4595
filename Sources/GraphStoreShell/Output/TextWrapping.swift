/// Wraps prose at word boundaries, for `.help` and `--help`.
enum TextWrapping {
    /// `text` wrapped to `width` columns, each line starting with `indent`; line breaks in
    /// `text` are kept.
    static func wrap(_ text: String, width: Int = 78, indent: String = "") -> String {
        var out = ""
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = indent
            for word in paragraph.split(separator: " ") {
                if line.count > indent.count, line.count + 1 + word.count > width {
                    out += line + "\n"
                    line = indent
                }
                line += (line.count > indent.count ? " " : "") + word
            }
            out += line + "\n"
        }
        return out
    }
}
