import CommandLineKit

/// `listen --timeout 30s`: a length of time as `30s`, `5m`, `2h`, `7d`, `1w`, a
/// compound such as `2h30m` or `1w2d`, or plain seconds; more than none.
extension Duration: ExpressibleByArgument {
    package init?(argument: String) {
        guard let seconds = Self.seconds(spelled: argument) ?? Int(argument), seconds > 0 else { return nil }
        self = .seconds(seconds)
    }

    package static var expectedValue: String? { "a duration: 30s, 5m, 2h, 2h30m, 1w or seconds" }

    /// The seconds that `30s`, `15m`, `2h`, `7d`, `1w` or a run of them (`2h30m`,
    /// `1w2d`: their sum) spell (`--since 2h` too), or nil; so many that they
    /// cannot be counted are none.
    static func seconds(spelled text: String) -> Int? {
        var total = 0
        var value: Int?
        for byte in text.utf8 {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let (times10, over1) = (value ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, over2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                if over1 || over2 { return nil }
                value = sum
                continue
            }
            let scale: Int
            switch byte {
            case UInt8(ascii: "s"): scale = 1
            case UInt8(ascii: "m"): scale = 60
            case UInt8(ascii: "h"): scale = 3600
            case UInt8(ascii: "d"): scale = 86400
            case UInt8(ascii: "w"): scale = 604_800
            default: return nil
            }
            // A unit needs its number before it: `h` or `2hm` spell nothing.
            guard let number = value else { return nil }
            let (seconds, over1) = number.multipliedReportingOverflow(by: scale)
            let (sum, over2) = total.addingReportingOverflow(seconds)
            if over1 || over2 { return nil }
            total = sum
            value = nil
        }
        // Digits left without a unit (`2h30`), or nothing at all, are not an age.
        guard value == nil, !text.isEmpty else { return nil }
        return total
    }
}
