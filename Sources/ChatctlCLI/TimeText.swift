#if canImport(Glibc)
import Glibc
#endif

/// Times as people and scripts read them, via the C library (FoundationEssentials
/// has no date formatting): ISO 8601 UTC for JSON, local time for people.
enum TimeText {
    /// `2019-09-08T17:24:11Z`
    static func iso8601(_ unix: Double) -> String { format(unix, "%Y-%m-%dT%H:%M:%SZ", utc: true) }

    /// `2019-09-08 19:24:11 CEST`
    static func local(_ unix: Double) -> String { format(unix, "%Y-%m-%d %H:%M:%S %Z", utc: false) }

    /// "in 1h 59m", "3m ago"
    static func relative(_ unix: Double, now: Double) -> String {
        let delta = Int((unix - now).rounded())
        let magnitude = abs(delta)
        let text: String
        if magnitude < 60 { text = "\(magnitude)s" }
        else if magnitude < 3600 { text = "\(magnitude / 60)m" }
        else if magnitude < 86400 { text = "\(magnitude / 3600)h \(magnitude % 3600 / 60)m" }
        else { text = "\(magnitude / 86400)d \(magnitude % 86400 / 3600)h" }
        return delta >= 0 ? "in \(text)" : "\(text) ago"
    }

    static func format(_ unix: Double, _ pattern: String, utc: Bool) -> String {
        var seconds = time_t(unix.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
