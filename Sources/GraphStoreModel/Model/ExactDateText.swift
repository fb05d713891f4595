import Foundation

/// Dates as ISO 8601 text that names the stored double exactly: a date is seconds since
/// 2001-01-01 (a `Double`), and its text carries as many fractional digits as that double
/// needs to read back to itself, no more (`2017-09-13T18:06:28.940283Z`, `…:28.5Z`,
/// `…:28Z`). Foundation's ISO 8601 style stops at milliseconds, and goes through seconds
/// since 1970, which rounds; this works on the reference-date seconds alone, with whole
/// seconds as an integer and the fraction as decimal digits, so nothing is rounded twice.
package enum ExactDateText {
    /// `date` in `timeZone`: `Z` in UTC (or any zone at offset zero), else `+01:00`.
    package static func string(from date: Date, in timeZone: TimeZone) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        guard let (whole, fraction) = decimalParts(of: seconds) else { return AttributeValue.format(seconds) }
        let offset = timeZone.secondsFromGMT(for: date)
        let local = whole + Int64(offset)
        let days = floorDivide(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civil(fromDaysSince2001: days)
        var text = yearText(year) + "-" + twoDigits(month) + "-" + twoDigits(day)
        text += "T" + twoDigits(Int(secondOfDay / 3600)) + ":" + twoDigits(Int(secondOfDay / 60 % 60)) + ":" + twoDigits(Int(secondOfDay % 60))
        if !fraction.isEmpty { text += "." + fraction }
        return text + zoneText(offset)
    }

    /// The whole seconds (rounded down) and the fractional digits of the shortest decimal
    /// that reads back as `seconds` (`-1.25` is `-2` and `"75"`); nil for values too large
    /// or not finite, which no calendar date names.
    static func decimalParts(of seconds: Double) -> (whole: Int64, fraction: String)? {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        // Swift prints the shortest digits that read back exactly: "526927588.940283", "1e-05".
        let printed = "\(abs(seconds))"
        let parts = printed.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = Array(mantissa[0] + (mantissa.count == 2 ? mantissa[1] : ""))
        let point = mantissa[0].count + exponent
        var integerDigits = point <= 0 ? "" : String(digits.prefix(point))
        if point > digits.count { integerDigits += String(repeating: "0", count: point - digits.count) }
        var fraction = point >= digits.count ? "" : String(repeating: "0", count: max(0, -point)) + String(digits.dropFirst(max(0, point)))
        while fraction.last == "0" { fraction.removeLast() }
        var whole = Int64(integerDigits) ?? 0
        if seconds < 0 {
            // -X.Y is -(X+1) + (1 - 0.Y): the fraction's ten's complement, as many digits.
            whole = -whole
            if !fraction.isEmpty {
                whole -= 1
                fraction = tensComplement(fraction)
            }
        }
        return (whole, fraction)
    }

    /// The double nearest `whole + 0.fraction` (the decimal read at once, so rounded once).
    package static func seconds(whole: Int64, fraction: String) -> Double? {
        let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
        if trimmed.isEmpty { return Double(whole) }
        if whole >= 0 { return Double("\(whole).\(trimmed)") }
        // whole + 0.F with whole < 0 is -((-whole - 1) + (1 - 0.F)).
        return Double("-\(-whole - 1).\(tensComplement(trimmed))")
    }

    /// `1 - 0.digits` as digits of the same length (`"75"` for `"25"`); `digits` ends in a
    /// non-zero digit, so the result does too.
    private static func tensComplement(_ digits: String) -> String {
        var result: [Character] = []
        for (index, character) in digits.reversed().enumerated() {
            let digit = Int(character.asciiValue ?? 48) - 48
            // The last digit is not zero, so only it takes the 10; every other one borrows.
            result.append(Character(String(index == 0 ? 10 - digit : 9 - digit)))
        }
        return String(result.reversed())
    }

    // MARK: - The proleptic Gregorian calendar, by day numbers

    /// Days from 2001-01-01 to a date (negative before it).
    package static func daysSince2001(year: Int64, month: Int, day: Int) -> Int64 {
        // Howard Hinnant's days_from_civil, shifted from 1970-01-01 to 2001-01-01 (11323 days).
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468 - 11_323
    }

    /// The year, month and day of a day number (``daysSince2001(year:month:day:)``).
    static func civil(fromDaysSince2001 days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 11_323 + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days of a month (February by the Gregorian leap rule).
    package static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Four digits for years 0000–9999; a sign and at least four digits beyond (ISO 8601's
    /// expanded years).
    private static func yearText(_ year: Int64) -> String {
        let digits = String(abs(year))
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        if year < 0 { return "-" + padded }
        return year > 9999 ? "+" + padded : padded
    }

    private static func zoneText(_ offset: Int) -> String {
        guard offset != 0 else { return "Z" }
        let magnitude = abs(offset)
        var text = (offset < 0 ? "-" : "+") + twoDigits(magnitude / 3600) + ":" + twoDigits(magnitude / 60 % 60)
        // Zones of the past had offsets in seconds (Paris until 1911: +00:09:21).
        if magnitude % 60 != 0 { text += ":" + twoDigits(magnitude % 60) }
        return text
    }
}
