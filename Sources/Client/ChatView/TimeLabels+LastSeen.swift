extension TimeLabels {
    /// When someone was last online, after "last seen": `just now`, `5 min ago`, `3 h ago`
    /// (today), `yesterday 21:04`, else the date (`Mon 30 Nov`).
    package func lastSeen(_ unix: Int, now: Int, format: TimeFormat = .standard) -> String {
        let ago = max(0, now - unix)
        if ago < 60 { return "just now" }
        if ago < 3600 { return "\(ago / 60) min ago" }
        if day(unix) == day(now) { return "\(ago / 3600) h ago" }
        if day(unix) == day(now) - 1 { return "yesterday " + time(unix, as: format) }
        return date(unix, now: now)
    }
}
