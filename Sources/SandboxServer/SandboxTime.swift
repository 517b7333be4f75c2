// Clock and the two timestamp formats the protocol uses.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

enum SandboxTime {
    /// Seconds since the epoch.
    static func now() -> Double { Date().timeIntervalSince1970 }

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
    static func iso8601(_ t: Double) -> String {
        let p = utc(t)
        return "\(pad(p.tm_year + 1900, 4))-\(pad(p.tm_mon + 1))-\(pad(p.tm_mday))T\(pad(p.tm_hour)):\(pad(p.tm_min)):\(pad(p.tm_sec))Z"
    }

    /// `2016-04-11 16:29:04 UTC`: the `QB-Token-ExpirationDate` header as the
    /// service writes it (docs/protocol.md §2). Whole seconds, rounded down, so a
    /// client never believes in a second the session does not have.
    static func expirationHeader(_ t: Double) -> String {
        let p = utc(t)
        return "\(pad(p.tm_year + 1900, 4))-\(pad(p.tm_mon + 1))-\(pad(p.tm_mday)) \(pad(p.tm_hour)):\(pad(p.tm_min)):\(pad(p.tm_sec)) UTC"
    }
}
