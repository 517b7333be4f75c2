/// Times as the chat view shows them (`16:51`, `Mon 30 Nov`), in the user's time
/// zone: the edge gives the UTC offset of each moment (from `localtime_r`), so
/// this stays pure and tests run in UTC.
package struct TimeLabels: Sendable {
    /// Seconds east of UTC at a unix time.
    package let utcOffset: @Sendable (Int) -> Int

    package init(utcOffset: @escaping @Sendable (Int) -> Int) {
        self.utcOffset = utcOffset
    }

    package static let utc = TimeLabels { _ in 0 }

    /// Days since 1970-01-01 in local time: equal for two moments of the same day.
    package func day(_ unix: Int) -> Int {
        let local = unix + utcOffset(unix)
        return local >= 0 ? local / 86400 : (local - 86399) / 86400
    }

    /// `16:51`
    package func time(_ unix: Int) -> String {
        let local = unix + utcOffset(unix)
        let seconds = ((local % 86400) + 86400) % 86400
        return Self.twoDigits(seconds / 3600) + ":" + Self.twoDigits(seconds % 3600 / 60)
    }

    /// `Mon 30 Nov`, with the year when it is not `now`'s.
    package func date(_ unix: Int, now: Int) -> String {
        let (year, month, day) = Self.civil(days: day(unix))
        let weekday = Self.weekdays[((self.day(unix) % 7) + 7 + 4) % 7]  // 1970-01-01 was a Thursday
        var text = "\(weekday) \(day) \(Self.months[month - 1])"
        if year != Self.civil(days: self.day(now)).year { text += " \(year)" }
        return text
    }

    /// A dialog's last activity in a list: the time today, else the day, else the year (at most 6 columns).
    package func short(_ unix: Int, now: Int) -> String {
        if day(unix) == day(now) { return time(unix) }
        let (year, month, day) = Self.civil(days: day(unix))
        if year != Self.civil(days: self.day(now)).year { return String(year) }
        return "\(day) \(Self.months[month - 1])"
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Year, month, day of a day count since 1970-01-01 (proleptic Gregorian;
    /// Howard Hinnant's civil_from_days).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
