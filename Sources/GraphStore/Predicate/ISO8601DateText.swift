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

    /// The date `text` names; a text without a zone is read in `timeZone`. Fractional
    /// seconds are read exactly, however many digits they have: the text a date prints as
    /// (``string(from:in:)``) reads back to the same stored value. A field out of its range
    /// (February 30th, hour 25, second 60) is refused, never carried into the next.
    public static func date(from text: String, in timeZone: TimeZone = .gmt) throws(DateTextError) -> Date {
        switch parse(Array(text.utf8), timeZone) {
        case .success(let date): return date
        case .failure(let reason): throw DateTextError(text: text, reason: reason.text)
        }
    }

    /// `2010-01-01T10:30:00Z` in UTC, `2010-01-01T11:30:00+01:00` in another zone; fractional
    /// seconds only when the date has them, as many digits as read back to the same stored
    /// value (`…:28.940283Z`, `…:28.5Z`).
    public static func string(from date: Date, in timeZone: TimeZone = .gmt) -> String {
        ExactDateText.string(from: date, in: timeZone)
    }

    /// ``string(from:in:)``'s text appended to `bytes` as UTF-8, without a string for it
    /// (the shell's output modes write dates so).
    package static func appendText(of date: Date, in timeZone: TimeZone, to bytes: inout [UInt8]) {
        ExactDateText.appendText(of: date, in: timeZone, to: &bytes)
    }

    /// Why a text is not a date: nil when it is not in a form read at all, else the field
    /// that is out of range.
    private struct Reason: Error {
        var text: String?
        static let form = Reason(text: nil)
    }

    private static func parse(_ bytes: [UInt8], _ defaultZone: TimeZone) -> Result<Date, Reason> {
        var reader = Reader(bytes: bytes)
        let yearSign = reader.sign()
        guard let unsignedYear = reader.year(signed: yearSign != nil), reader.take("-"), let month = reader.number(2), reader.take("-"),
            let day = reader.number(2)
        else { return .failure(.form) }
        let year = Int64(yearSign ?? 1) * unsignedYear
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = ""
        if reader.take("T") || reader.take(" ") {
            guard let h = reader.number(2), reader.take(":"), let m = reader.number(2) else { return .failure(.form) }
            (hour, minute) = (h, m)
            if reader.take(":") {
                guard let s = reader.number(2) else { return .failure(.form) }
                second = s
                if reader.take(".") {
                    let start = reader.position
                    while reader.digit() != nil {}
                    guard reader.position > start else { return .failure(.form) }
                    fraction = String(decoding: bytes[start..<reader.position], as: UTF8.self)
                }
            }
        }
        var offset: Int?
        if reader.take("Z") {
            offset = 0
        } else if let sign = reader.sign() {
            guard let hours = reader.number(2) else { return .failure(.form) }
            let colon = reader.take(":")
            guard let minutes = reader.number(2) else { return .failure(.form) }
            var seconds = 0
            if colon, reader.take(":") {
                guard let s = reader.number(2) else { return .failure(.form) }
                seconds = s
            }
            guard hours < 24, minutes < 60, seconds < 60 else { return .failure(Reason(text: "the zone offset is not within ±23:59")) }
            offset = sign * (hours * 3600 + minutes * 60 + seconds)
        }
        guard reader.isAtEnd else { return .failure(.form) }
        if let reason = outOfRange(year: year, month: month, day: day, hour: hour, minute: minute, second: second) {
            return .failure(Reason(text: reason))
        }
        let days = ExactDateText.daysSince2001(year: year, month: month, day: day)
        var whole = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        if let offset {
            whole -= Int64(offset)
        } else {
            // A local time: the zone's offset at that wall-clock time (from the offset at the
            // same instant in UTC, then once more at the corrected instant).
            let guess = Date(timeIntervalSinceReferenceDate: Double(whole))
            let first = defaultZone.secondsFromGMT(for: guess)
            let second = defaultZone.secondsFromGMT(for: guess.addingTimeInterval(-Double(first)))
            whole -= Int64(second)
        }
        guard let seconds = ExactDateText.seconds(whole: whole, fraction: fraction) else { return .failure(.form) }
        return .success(Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// The field of a date that is out of its range, said as a reason; nil when all fit.
    private static func outOfRange(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> String? {
        guard (1...12).contains(month) else { return "month \(month) is not 01–12" }
        let days = ExactDateText.daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            return "day \(day) is not 01–\(days) (\(year)-\(month < 10 ? "0" : "")\(month) has \(days) days)"
        }
        guard (0...23).contains(hour) else { return "hour \(hour) is not 00–23" }
        guard (0...59).contains(minute) else { return "minute \(minute) is not 00–59" }
        if second == 60 { return "second 60 (a leap second) has no Date value; it would become the next minute" }
        guard (0...59).contains(second) else { return "second \(second) is not 00–59" }
        return nil
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

        /// Four digits, or (after a sign) four or more: ISO 8601's expanded years.
        mutating func year(signed: Bool) -> Int64? {
            guard signed else { return number(4).map(Int64.init) }
            var value: Int64 = 0
            var count = 0
            while count < 9, let d = digit() {
                value = value * 10 + Int64(d)
                count += 1
            }
            return count >= 4 ? value : nil
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}

/// A text that is not a date GraphStore reads: it names the text, and why (a field out of
/// its range) or the forms expected.
public struct DateTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// The field out of range (`day 30 is not 01–29 (2024-02 has 29 days)`); nil when the
    /// text is not in a form read at all.
    public var reason: String? = nil

    public var description: String { "\"\(text)\" is not a date: \(reason ?? "expected \(ISO8601DateText.expectedFormat)")" }
}
