import CommandLineKit

/// A size given on the command line (`export --inline-limit`): bytes, or a number
/// with `K`/`KB` or `M`/`MB` (binary units, as chatctl shows sizes: 1 KB = 1024 B).
struct ByteSize: ExpressibleByArgument, Equatable {
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument text: String) {
        let lower = text.lowercased()
        let digits = lower.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let number = Int(digits) else { return nil }
        let unit: Int
        switch lower.dropFirst(digits.count) {
        case "", "b": unit = 1
        case "k", "kb", "kib": unit = 1024
        case "m", "mb", "mib": unit = 1024 * 1024
        default: return nil
        }
        bytes = number * unit
    }

    static var expectedValue: String? { "a size: bytes, or a number with K or M (e.g. 500K, 2M)" }

    /// `2M`, `500K`: in the largest unit that divides it, as it would be typed.
    var defaultValueDescription: String {
        guard bytes > 0 else { return "0" }
        return bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024))M" : bytes % 1024 == 0 ? "\(bytes / 1024)K" : String(bytes)
    }
}
