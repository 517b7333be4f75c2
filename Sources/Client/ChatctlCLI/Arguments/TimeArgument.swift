#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Diagnostics

/// `--before`/`--since` values: unix seconds, `2026-11-30`, `2026-11-30T08:00[:00][Z]`
/// (UTC), or an age such as `30s`, `15m`, `2h`, `7d`, `1w` or `2h30m` (that long before now).
struct TimeArgument: ExpressibleByArgument, Equatable {
    enum Point: Equatable {
        /// Unix seconds.
        case at(Int)
        /// This many seconds before now.
        case ago(Int)
    }

    let point: Point
    /// As it was typed, to name it back in an error.
    let spelling: String

    init?(argument text: String) {
        spelling = text
        if let unix = Int(text), unix >= 0 { point = .at(unix); return }
        if let age = Duration.seconds(spelled: text) { point = .ago(age); return }
        guard let unix = Self.date(text) else { return nil }
        point = .at(unix)
    }

    static var expectedValue: String? { "a time: unix seconds, 2026-11-30, 2026-11-30T08:00:00Z, or an age like 2h, 2h30m or 1w" }

    /// Unix seconds, an age counted back from `now`.
    func unixTime(now: Int) -> Int {
        switch point {
        case .at(let unix): unix
        case .ago(let seconds): now - seconds
        }
    }

    /// `--since` and `--before` as unix seconds; a range that nothing can be in
    /// (since at or after before) is refused, so an empty answer is never a silent typo.
    static func range(since: TimeArgument?, before: TimeArgument?, now: Int) throws(Failure) -> (since: Int?, before: Int?) {
        let start = since?.unixTime(now: now), end = before?.unixTime(now: now)
        if let since, let before, let start, let end, start >= end {
            let relation = start == end ? "is the same time as" : "is after"
            throw Failure(.invalidInput, "--since \(since.spelling) \(relation) --before \(before.spelling); nothing can match")
        }
        return (start, end)
    }

    /// `2026-11-30` or `2026-11-30T08:00[:00][Z]` (UTC) as unix seconds.
    private static func date(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        if bytes.count > 10 {
            guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
                  let h = number(11..<13), bytes.count >= 16, bytes[13] == UInt8(ascii: ":"), let m = number(14..<16) else { return nil }
            hour = h; minute = m
            var rest = 16
            if bytes.count >= 19 && bytes[16] == UInt8(ascii: ":") { guard let s = number(17..<19) else { return nil }; second = s; rest = 19 }
            guard rest == bytes.count || (rest == bytes.count - 1 && bytes[rest] == UInt8(ascii: "Z")) else { return nil }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900); parts.tm_mon = Int32(month - 1); parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour); parts.tm_min = Int32(minute); parts.tm_sec = Int32(second)
        return Int(timegm(&parts))
    }
}
