import Foundation
import GraphStore

/// `.tz [ZONE]`: the zone dates are printed in, and read in when typed without one.
enum TimeZoneCommand {
    static let zone = Placeholder("ZONE")

    static let command = ShellCommand(
        ".tz", arguments: [.optional([.value(zone)])],
        summary: "print dates in ZONE and read dates typed without a zone in it (UTC, local, Europe/Paris, +02:00); no ZONE: show it",
        example: ".tz Europe/Paris",
        details: "Dates print as ISO 8601 in every mode (2010-01-01T13:00:00+01:00); the default is UTC."
    ) { shell, arguments in
        guard let word = arguments[zone] else {
            shell.output("tz is \(name(of: shell.settings.timeZone))\n")
            return
        }
        shell.settings.timeZone = try timeZone(word)
    }

    /// `UTC`, `Z`, `local`, an IANA name, or an offset (`+02:00`, `-0530`).
    static func timeZone(_ word: String) throws -> TimeZone {
        switch word.lowercased() {
        case "utc", "z", "gmt": return .gmt
        case "local": return .current
        default: break
        }
        if let zone = TimeZone(identifier: word) { return zone }
        if let match = word.wholeMatch(of: #/([+-])(\d\d):?(\d\d)/#), let hours = Int(match.output.2), let minutes = Int(match.output.3),
            hours < 24, minutes < 60, let zone = TimeZone(secondsFromGMT: (match.output.1 == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        {
            return zone
        }
        throw ShellError(".tz: unknown time zone \(word) (UTC, local, an IANA name such as Europe/Paris, or an offset such as +02:00)")
    }

    /// How `.tz` and `.show` name a zone.
    static func name(of zone: TimeZone) -> String {
        guard zone.identifier.hasPrefix("GMT") || zone.identifier == "UTC" else { return zone.identifier }
        let offset = zone.secondsFromGMT()
        guard offset != 0 else { return "UTC" }
        return String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
    }
}
