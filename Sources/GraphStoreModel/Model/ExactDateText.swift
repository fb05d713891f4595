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
        var bytes: [UInt8] = []
        appendText(of: date, in: timeZone, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``string(from:in:)``'s text to `bytes`, digit by digit: no string is made
    /// but for the few values ``arithmeticDecimalParts(of:)`` leaves to printing.
    package static func appendText(of date: Date, in timeZone: TimeZone, to bytes: inout [UInt8]) {
        let seconds = date.timeIntervalSinceReferenceDate
        let whole: Int64
        var printedFraction = ""
        var fraction: (value: UInt64, digits: Int) = (0, 0)
        if let parts = arithmeticDecimalParts(of: seconds) {
            whole = parts.whole
            fraction = (parts.fraction, parts.fractionDigits)
        } else if let parts = printedDecimalParts(of: seconds) {
            (whole, printedFraction) = parts
        } else {
            return bytes.append(contentsOf: AttributeValue.format(seconds).utf8)
        }
        let offset = timeZone.secondsFromGMT(for: date)
        let local = whole + Int64(offset)
        let days = floorDivide(local, 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = civil(fromDaysSince2001: days)
        appendYear(year, to: &bytes)
        bytes.append(0x2D)
        appendTwoDigits(month, to: &bytes)
        bytes.append(0x2D)
        appendTwoDigits(day, to: &bytes)
        bytes.append(0x54)
        appendTwoDigits(secondOfDay / 3600, to: &bytes)
        bytes.append(0x3A)
        appendTwoDigits(secondOfDay / 60 % 60, to: &bytes)
        bytes.append(0x3A)
        appendTwoDigits(secondOfDay % 60, to: &bytes)
        if fraction.digits > 0 || !printedFraction.isEmpty {
            bytes.append(0x2E)
            appendDigits(fraction.value, count: fraction.digits, to: &bytes)
            bytes.append(contentsOf: printedFraction.utf8)
        }
        appendZone(offset, to: &bytes)
    }

    /// The whole seconds (rounded down) and the fractional digits of the shortest decimal
    /// that reads back as `seconds`, the digits as an integer and how many there are
    /// (`-1.25` is `-2`, 75, 2), found by exact integer arithmetic; nil for values too large
    /// or not finite, which no calendar date names, and for the few left to printing
    /// (``printedDecimalParts(of:)``): under one second from the reference date, a power of
    /// two, two shortest decimals equally near.
    ///
    /// A double of one second or more is a whole number `W` plus a fraction `M / 2^E`, both
    /// exact, and it reads back from any decimal within half its spacing (`2^-E / 2`, the
    /// end included when its last bit is 0, as round-half-even reads). The shortest text
    /// that reads back has the fewest fractional digits `k` for which the integer `d`
    /// nearest `M × 10^k / 2^E` lies within that half spacing, and Swift's printing picks
    /// that nearest `d`: the same digits, found with 128-bit integers instead of a string.
    /// Tests compare the two ways on millions of values.
    static func arithmeticDecimalParts(of seconds: Double) -> (whole: Int64, fraction: UInt64, fractionDigits: Int)? {
        // As printing: beyond 10^15 seconds (30 million years) a value names no date shown.
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        let magnitude = abs(seconds)
        // A power of two has a nearer neighbour below than above: left to printing.
        guard magnitude >= 1, magnitude.significandBitPattern != 0 else { return nil }
        let whole = magnitude.rounded(.down)
        let fractionBits = 52 - Int(magnitude.exponent)
        guard fractionBits > 0 else { return signed(whole: Int64(whole), fraction: 0, digits: 0, power: 1, negative: seconds < 0) }
        let scale = UInt128(1) << fractionBits
        let numerator = UInt128(UInt64((magnitude - whole) * Double(sign: .plus, exponent: fractionBits, significand: 1)))
        let evenLastBit = magnitude.significandBitPattern & 1 == 0
        var power: UInt128 = 1
        for digits in 0...17 {
            let product = numerator * power
            let remainder = product & (scale - 1)
            if remainder == scale >> 1 {
                // Two decimals equally near, half a step away: left to printing if they
                // read back (`2 × distance = 2^E` within `10^k`), else more digits are needed.
                guard scale > power else { return nil }
                power *= 10
                continue
            }
            let nearest = (product >> fractionBits) + (remainder > scale >> 1 ? 1 : 0)
            let distance = nearest << fractionBits > product ? (nearest << fractionBits) - product : product - (nearest << fractionBits)
            // Within half the spacing: |nearest / 10^k - M / 2^E| ≤ 2^-E / 2, times 10^k 2^E.
            if 2 * distance < power || (evenLastBit && 2 * distance == power) {
                let carry = nearest / power
                return signed(
                    whole: Int64(whole) + Int64(carry), fraction: UInt64(nearest % power), digits: carry > 0 ? 0 : digits,
                    power: UInt64(power), negative: seconds < 0)
            }
            power *= 10
        }
        return nil
    }

    /// A non-negative `whole.fraction` made negative as ``arithmeticDecimalParts(of:)`` writes it:
    /// -X.F is -(X+1) + (1 - 0.F), the fraction's ten's complement of as many digits.
    private static func signed(whole: Int64, fraction: UInt64, digits: Int, power: UInt64, negative: Bool)
        -> (whole: Int64, fraction: UInt64, fractionDigits: Int)
    {
        guard negative else { return (whole, fraction, digits) }
        guard fraction > 0 else { return (-whole, 0, 0) }
        return (-whole - 1, power - fraction, digits)
    }

    /// ``arithmeticDecimalParts(of:)``'s parts (the fraction as digits) by printing the
    /// double: Swift prints the shortest digits that
    /// read back exactly ("526927588.940283", "1e-05"). The slow way, for the values the
    /// arithmetic leaves, and what tests check it against.
    static func printedDecimalParts(of seconds: Double) -> (whole: Int64, fraction: String)? {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
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

    private static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value / 10 % 10) + 0x30)
        bytes.append(UInt8(truncatingIfNeeded: value % 10) + 0x30)
    }

    /// `value`'s last `count` decimal digits, leading zeros included.
    private static func appendDigits(_ value: UInt64, count: Int, to bytes: inout [UInt8]) {
        let start = bytes.count
        var rest = value
        for _ in 0..<count {
            bytes.append(UInt8(truncatingIfNeeded: rest % 10) + 0x30)
            rest /= 10
        }
        bytes[start...].reverse()
    }

    /// Four digits for years 0000–9999; a sign and at least four digits beyond (ISO 8601's
    /// expanded years).
    private static func appendYear(_ year: Int64, to bytes: inout [UInt8]) {
        if year < 0 { bytes.append(0x2D) } else if year > 9999 { bytes.append(0x2B) }
        var digits = 1
        var limit: UInt64 = 10
        while digits < 19, limit <= year.magnitude {
            digits += 1
            limit *= 10
        }
        appendDigits(year.magnitude, count: max(4, digits), to: &bytes)
    }

    private static func appendZone(_ offset: Int, to bytes: inout [UInt8]) {
        guard offset != 0 else { return bytes.append(0x5A) }
        let magnitude = abs(offset)
        bytes.append(offset < 0 ? 0x2D : 0x2B)
        appendTwoDigits(magnitude / 3600, to: &bytes)
        bytes.append(0x3A)
        appendTwoDigits(magnitude / 60 % 60, to: &bytes)
        // Zones of the past had offsets in seconds (Paris until 1911: +00:09:21).
        if magnitude % 60 != 0 {
            bytes.append(0x3A)
            appendTwoDigits(magnitude % 60, to: &bytes)
        }
    }
}
