/// Sizes as people read them: `512 B`, `9.5 KB`, `1.2 MB`, `340 MB` (binary
/// units; one decimal below 10, whole numbers above).
package enum ByteCount {
    package static func format(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        if tenths < 100 { return "\(tenths / 10).\(tenths % 10) \(units[unit])" }
        return "\(Int(value.rounded())) \(units[unit])"
    }
}
