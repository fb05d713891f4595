import Foundation
import Testing

@testable import GraphStoreModel

/// Dates written digit by digit (`ExactDateText.appendText`, what the shell's output modes
/// write) say what printing the double says: the arithmetic finding of the shortest
/// fractional digits is checked against Swift's own printing, on values a store holds
/// (`Date()`'s microseconds, whole seconds, dates before 2001) and on arbitrary doubles.
@Suite("Exact date text: digits by arithmetic equal the printed digits")
struct ExactDateTextTests {
    /// The digits both ways; the arithmetic may decline a value (nil), never differ.
    static func check(_ seconds: Double, _ declined: inout Int) {
        let printed = ExactDateText.printedDecimalParts(of: seconds)
        guard let parts = ExactDateText.arithmeticDecimalParts(of: seconds) else {
            declined += 1
            return
        }
        var digits = String(parts.fraction)
        digits = String(repeating: "0", count: max(0, parts.fractionDigits - digits.count)) + digits
        if parts.fractionDigits == 0 { digits = "" }
        #expect(printed?.whole == parts.whole && printed?.fraction == digits, "\(seconds): printed \(String(describing: printed)), arithmetic \(parts)")
    }

    @Test("times a clock stores, whole seconds and dates before 2001: the same digits, almost none left to printing")
    func storedTimes() {
        var random = SeededGenerator(state: 20261202)
        var declined = 0
        let count = 200_000
        for _ in 0..<count {
            let whole = Double(Int64.random(in: -3_000_000_000...3_000_000_000, using: &random))
            let micro = Double(Int.random(in: 0..<1_000_000, using: &random))
            let now = Date(timeIntervalSince1970: 1.7e9 + Double.random(in: 0..<1e8, using: &random)).timeIntervalSinceReferenceDate
            Self.check(whole, &declined)
            Self.check(whole + micro / 1_000_000, &declined)
            Self.check(whole - micro / 1_000, &declined)
            Self.check(now, &declined)
        }
        // Only values under a second from 2001 and powers of two are printed (7 here).
        #expect(declined < 100, "\(declined) of \(4 * count) values were left to printing")
    }

    @Test("arbitrary doubles, tiny ones and ones near 2^53: the same digits or left to printing")
    func arbitraryDoubles() {
        var random = SeededGenerator(state: 53)
        var declined = 0
        for _ in 0..<200_000 {
            let bits = UInt64.random(in: 0x3E00_0000_0000_0000...0x4340_0000_0000_0000, using: &random)
            let value = Double(bitPattern: bits)
            Self.check(value, &declined)
            Self.check(-value, &declined)
        }
        // Values between 1 and 2^53 seconds are all found by arithmetic but ties.
        #expect(declined < 200_000, "\(declined) of 400,000 left to printing")
        for value: Double in [0.0, -0.0, 1e-5, 0.5, -0.5, 1.25, -1.25, 0.1, 0.3, 9.007199254740991e15, 8.999e15, 1e15, 123456789.123456789, -978307200.0] {
            Self.check(value, &declined)
        }
    }

    @Test("the text written as bytes is the text of the date; dates in UTC, in a zone with an offset in seconds, in an expanded year")
    func bytesAreTheText() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        for seconds in [526_927_588.940283, -3_000_000_000.25, 0, 1e-5, 320_000_000_000] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            var bytes: [UInt8] = Array("x".utf8)
            ExactDateText.appendText(of: date, in: paris, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "x" + ExactDateText.string(from: date, in: paris))
        }
        #expect(ExactDateText.string(from: Date(timeIntervalSinceReferenceDate: 526_927_588.940283), in: .gmt) == "2017-09-12T16:46:28.940283Z")
        #expect(ExactDateText.string(from: Date(timeIntervalSinceReferenceDate: -3_000_000_000.25), in: paris) == "1905-12-08T18:49:20.75+00:09:21")
        #expect(ExactDateText.string(from: Date(timeIntervalSinceReferenceDate: 320_000_000_000), in: .gmt) == "+12141-05-25T16:53:20Z")
    }
}
