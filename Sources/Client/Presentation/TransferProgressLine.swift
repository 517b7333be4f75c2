/// One line of a transfer's progress bar, drawn from a value (pure: state in,
/// text out; `ProgressMeter` decides when to draw it):
///
///     cat.jpg [###########----------------]   42%  12 MB / 28 MB  8.0 MB/s  0:02 left
///
/// Never wider than `width - 1` columns (the last column would wrap); the bar goes
/// first when room runs out, then the rate and time left; the name is cut last.
package struct TransferProgressLine: Equatable {
    /// Already safe for a terminal (the caller sanitises names from other users).
    package var name: String
    package var bytes: Int64
    package var total: Int64?
    /// Nil until there is enough to judge.
    package var bytesPerSecond: Double?

    package init(name: String, bytes: Int64, total: Int64?, bytesPerSecond: Double?) {
        self.name = name; self.bytes = bytes; self.total = total; self.bytesPerSecond = bytesPerSecond
    }

    package func render(width: Int) -> String {
        let room = max(20, width) - 1
        var figures: [String] = []
        if let total, total > 0 {
            let percent = min(100, Int(Double(bytes) * 100 / Double(total)))
            figures.append(Self.padded("\(percent)%", 4))
            figures.append("\(AttachmentLabel.byteCount(Int(bytes))) / \(AttachmentLabel.byteCount(Int(total)))")
        } else {
            figures.append(AttachmentLabel.byteCount(Int(bytes)))
        }
        var speed: [String] = []
        if let rate = bytesPerSecond {
            speed.append("\(AttachmentLabel.byteCount(Int(rate)))/s")
            if let total, total > bytes {
                speed.append(rate > 0 ? "\(Self.duration(Double(total - bytes) / rate)) left" : "--:-- left")
            }
        }
        // The most that fits: figures with speed, then figures alone.
        for right in [(figures + speed).joined(separator: "  "), figures.joined(separator: "  ")] {
            let nameRoom = room - right.count - 2
            guard nameRoom >= 4 else { continue }
            let shownName = Self.cut(name, to: min(nameRoom, 40))
            let barRoom = nameRoom - shownName.count - 1
            if let total, total > 0, barRoom >= 12 {
                let inside = min(30, barRoom - 2)
                let filled = Int(Double(inside) * min(1, Double(bytes) / Double(total)))
                let bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: inside - filled) + "]"
                return "\(shownName) \(bar)  \(right)"
            }
            return "\(shownName)  \(right)"
        }
        return String(figures.joined(separator: "  ").prefix(room))
    }

    /// `0:07`, `12:34`, `1:02:03`.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 100 * 3600 else { return "--:--" }
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        let twoDigits = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    /// At most `limit` characters, an ellipsis marking a cut.
    package static func cut(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(1, limit - 1))) + "…"
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
