import Foundation

/// Dates written as people write them: ISO 8601 dates and date-times, read for predicates
/// (`date > "2010-01-01"`) and written for output in a chosen time zone.
///
/// Read: `2010-01-01`, `2010-01-01T12:30`, `2010-01-01T12:30:05`, `2010-01-01T12:30:05.25`
/// (a space may stand for the `T`), each optionally followed by `Z` or an offset (`+02:00`,
/// `-0530`). Without a zone, the text is a time in the zone given.
///
/// ```swift
/// try ISO8601DateText.date(from: "2010-01-01T12:30+02:00")    // 2010-01-01T10:30:00Z
/// ISO8601DateText.string(from: date, in: TimeZone(identifier: "Europe/Paris")!)   // 2010-01-01T11:30:00+01:00
/// ```
public enum ISO8601DateText {
    /// The forms accepted, for error messages.
    public static let expectedFormat = "an ISO 8601 date (2010-01-01, 2010-01-01T12:30, 2010-01-01T12:30:00Z, 2010-01-01T12:30:00+02:00)"

    /// The date `text` names; a text without a zone is read in `timeZone`.
    public static func date(from text: String, in timeZone: TimeZone = .gmt) throws(DateTextError) -> Date {
        guard let date = parse(Array(text.utf8), timeZone) else { throw DateTextError(text: text) }
        return date
    }

    /// `2010-01-01T10:30:00Z` in UTC, `2010-01-01T11:30:00+01:00` in another zone; fractional
    /// seconds only when the date has them.
    public static func string(from date: Date, in timeZone: TimeZone = .gmt) -> String {
        let seconds = date.timeIntervalSince1970
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: seconds.rounded() != seconds, timeZone: timeZone)
        return date.formatted(style.timeZoneSeparator(.colon))
    }

    private static func parse(_ bytes: [UInt8], _ defaultZone: TimeZone) -> Date? {
        var reader = Reader(bytes: bytes)
        guard let year = reader.number(4), reader.take("-"), let month = reader.number(2), reader.take("-"),
            let day = reader.number(2)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var fraction = 0.0
        if reader.take("T") || reader.take(" ") {
            guard let hour = reader.number(2), reader.take(":"), let minute = reader.number(2) else { return nil }
            components.hour = hour
            components.minute = minute
            if reader.take(":") {
                guard let second = reader.number(2) else { return nil }
                components.second = second
                if reader.take(".") {
                    let start = reader.position
                    while reader.digit() != nil {}
                    guard reader.position > start, let value = Double("0." + String(decoding: bytes[start..<reader.position], as: UTF8.self))
                    else { return nil }
                    fraction = value
                }
            }
        }
        var zone = defaultZone
        if reader.take("Z") {
            zone = .gmt
        } else if let sign = reader.sign() {
            guard let hours = reader.number(2) else { return nil }
            _ = reader.take(":")
            guard let minutes = reader.number(2), hours < 24, minutes < 60,
                let offset = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
            else { return nil }
            zone = offset
        }
        guard reader.isAtEnd, let hour = components.hour, let minute = components.minute, let second = components.second,
            (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(fraction)
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { return nil }
            defer { position += 1 }
            return Int(bytes[position] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits.
        mutating func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let d = digit() else { return nil }
                value = value * 10 + d
            }
            return value
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}

/// A text that is not a date GraphStore reads: it names the text and the forms expected.
public struct DateTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public var text: String

    public var description: String { "\"\(text)\" is not a date: expected \(ISO8601DateText.expectedFormat)" }
}
