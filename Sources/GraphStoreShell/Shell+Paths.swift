import Foundation

extension Shell {
    /// A path typed by the user, with `~` expanded and relative paths taken from the
    /// shell's directory (the process's working directory unless a test set one).
    func resolve(path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        guard !expanded.hasPrefix("/"), let directory = state.directory else { return expanded }
        return (directory as NSString).appendingPathComponent(expanded)
    }
}
