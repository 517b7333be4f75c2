// Clock and the timestamp formats the protocol and the storage endpoint use.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

package enum SandboxTime {
    /// Seconds since the epoch.
    package static func now() -> Double { Date().timeIntervalSince1970 }

    /// Seconds on a clock that never jumps (timers, deadlines): not the time of day.
    package static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func utc(_ t: Double) -> tm {
        var seconds = time_t(t.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func pad(_ v: Int32, _ width: Int = 2) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// `2019-09-08T17:24:11Z`
    package static func iso8601(_ t: Double) -> String {
        let p = utc(t)
        return "\(pad(p.tm_year + 1900, 4))-\(pad(p.tm_mon + 1))-\(pad(p.tm_mday))T\(pad(p.tm_hour)):\(pad(p.tm_min)):\(pad(p.tm_sec))Z"
    }

    /// `2016-04-11 16:29:04 UTC`: the `QB-Token-ExpirationDate` header as the
    /// service writes it (docs/protocol.md §2). Whole seconds, rounded down, so a
    /// client never believes in a second the session does not have.
    package static func expirationHeader(_ t: Double) -> String {
        let p = utc(t)
        return "\(pad(p.tm_year + 1900, 4))-\(pad(p.tm_mon + 1))-\(pad(p.tm_mday)) \(pad(p.tm_hour)):\(pad(p.tm_min)):\(pad(p.tm_sec)) UTC"
    }

    /// `Mon, 30 Nov 2026 18:55:19 GMT` (RFC 9110's IMF-fixdate): the upload policy's `expires` field.
    package static func httpDate(_ t: Double) -> String {
        let p = utc(t)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[Int(p.tm_wday)]), \(pad(p.tm_mday)) \(months[Int(p.tm_mon)]) \(pad(p.tm_year + 1900, 4)) "
            + "\(pad(p.tm_hour)):\(pad(p.tm_min)):\(pad(p.tm_sec)) GMT"
    }

    /// `20261130T175519Z`: S3's `x-amz-date`.
    package static func amzDate(_ t: Double) -> String {
        let p = utc(t)
        return "\(pad(p.tm_year + 1900, 4))\(pad(p.tm_mon + 1))\(pad(p.tm_mday))T\(pad(p.tm_hour))\(pad(p.tm_min))\(pad(p.tm_sec))Z"
    }

    /// Seconds since the epoch of `20261130T175519Z`; nil when it is not exactly that shape.
    package static func parseAmzDate(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") else { return nil }
        return components(b, [(0, 4), (4, 2), (6, 2), (9, 2), (11, 2), (13, 2)])
    }

    /// Seconds since the epoch of `2026-11-30T17:55:19Z` (fractions of a second allowed
    /// and dropped, as S3 policies may carry them); nil for anything else.
    package static func parseISO8601(_ text: String) -> Double? {
        var b = Array(text.utf8)
        guard b.count >= 20, b.last == UInt8(ascii: "Z") else { return nil }
        if b.count > 20 {
            guard b[19] == UInt8(ascii: "."), b[20..<(b.count - 1)].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            b = Array(b[0..<19]) + [UInt8(ascii: "Z")]
        }
        let separators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")),
                                          (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":"))]
        guard separators.allSatisfy({ b[$0.0] == $0.1 }) else { return nil }
        return components(b, [(0, 4), (5, 2), (8, 2), (11, 2), (14, 2), (17, 2)])
    }

    /// Year, month, day, hour, minute, second read from fixed digit runs, as UTC.
    private static func components(_ b: [UInt8], _ runs: [(Int, Int)]) -> Double? {
        var values: [Int32] = []
        for (start, length) in runs {
            var v: Int32 = 0
            for c in b[start..<(start + length)] {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int32(c - 48)
            }
            values.append(v)
        }
        guard (1...12).contains(values[1]), (1...31).contains(values[2]), values[3] < 24, values[4] < 60, values[5] < 61 else {
            return nil
        }
        var parts = tm()
        parts.tm_year = values[0] - 1900
        parts.tm_mon = values[1] - 1
        parts.tm_mday = values[2]
        parts.tm_hour = values[3]
        parts.tm_min = values[4]
        parts.tm_sec = values[5]
        return Double(timegm(&parts))
    }
}
