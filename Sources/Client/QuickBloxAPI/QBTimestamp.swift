#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses the fixed date formats QuickBlox uses, by hand (FoundationEssentials has
/// no DateFormatter, and these never vary): `QB-Token-ExpirationDate` as
/// `2016-04-11 16:29:04 UTC` (seen from the service) or `2018-07-11 17:33:09 +0000`
/// (docs/protocol.md §2), and ISO fields such as `created_at`:
/// `2019-09-08T17:24:11Z`, `2019-09-08T17:24:11.123+02:00`.
package enum QBTimestamp {
    package static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"),
              let month = scanner.digits(2), scanner.take("-"),
              let day = scanner.digits(2),
              scanner.take("T") || scanner.take(" ") || scanner.take("t"),
              let hour = scanner.digits(2), scanner.take(":"),
              let minute = scanner.digits(2), scanner.take(":"),
              let second = scanner.digits(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if scanner.take(".") {
            var scale = 0.1
            var sawDigit = false
            while let digit = scanner.digits(1) { fraction += Double(digit) * scale; scale /= 10; sawDigit = true }
            guard sawDigit else { return nil }
        }
        _ = scanner.take(" ")
        var offsetSeconds = 0
        if scanner.take("Z") || scanner.take("z") || scanner.take(word: "UTC") || scanner.take(word: "GMT") {
            offsetSeconds = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2) else { return nil }
            _ = scanner.take(":")
            let minutes = scanner.digits(2) ?? 0
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else if !scanner.atEnd {
            return nil
        }
        guard scanner.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { index == bytes.count }
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        mutating func take(word: String) -> Bool {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else { return false }
            index += expected.count
            return true
        }
        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
    }
}
