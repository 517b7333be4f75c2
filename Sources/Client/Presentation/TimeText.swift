#if canImport(Glibc)
import Glibc
#endif

/// Times as people and scripts read them, via the C library (FoundationEssentials
/// has no date formatting): ISO 8601 UTC for JSON, local time for people.
package enum TimeText {
    /// Whose clock a time is read on: UTC (for machines), or the user's time zone.
    package enum Zone {
        case utc, local
    }

    /// `2019-09-08T17:24:11Z`
    package static func iso8601(_ unix: Double) -> String { format(unix, "%Y-%m-%dT%H:%M:%SZ", in: .utc) }

    /// `2019-09-08 19:24:11 CEST`
    package static func local(_ unix: Double) -> String { format(unix, "%Y-%m-%d %H:%M:%S %Z", in: .local) }

    /// "in 1h 59m", "3m ago"
    package static func relative(_ unix: Double, now: Double) -> String {
        let delta = Int((unix - now).rounded())
        let magnitude = abs(delta)
        let text: String
        if magnitude < 60 { text = "\(magnitude)s" }
        else if magnitude < 3600 { text = "\(magnitude / 60)m" }
        else if magnitude < 86400 { text = "\(magnitude / 3600)h \(magnitude % 3600 / 60)m" }
        else { text = "\(magnitude / 86400)d \(magnitude % 86400 / 3600)h" }
        return delta >= 0 ? "in \(text)" : "\(text) ago"
    }

    /// `pattern` is a literal: handed to strftime as it is stored, with no C string made
    /// of it at each call (a table formats a time a row).
    package static func format(_ unix: Double, _ pattern: StaticString, in zone: Zone) -> String {
        format(parts(unix, in: zone), pattern)
    }

    /// The broken-down time (`gmtime_r`, or `localtime_r` in the local zone), so that a
    /// caller formatting one time several ways, or comparing days, converts it once.
    package static func parts(_ unix: Double, in zone: Zone) -> tm {
        var seconds = time_t(unix.rounded(.down))
        var parts = tm()
        switch zone {
        case .utc: gmtime_r(&seconds, &parts)
        case .local: localtime_r(&seconds, &parts)
        }
        return parts
    }

    /// `strftime` into a buffer on the stack (a transcript formats two times per line).
    package static func format(_ parts: tm, _ pattern: StaticString) -> String {
        var parts = parts
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let n = pattern.utf8Start.withMemoryRebound(to: CChar.self, capacity: pattern.utf8CodeUnitCount + 1) {
                strftime(buffer.baseAddress!, buffer.count, $0, &parts)
            }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: n), as: UTF8.self)
        }
    }
}
