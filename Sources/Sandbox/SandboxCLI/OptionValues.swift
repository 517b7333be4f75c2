import CommandLineKit
import SandboxHTTP
import SandboxServer

// The sandbox's option values, read once by CommandLineKit's parser, which refuses one
// that is none of its type with the usage error that says what was expected.

/// A value that must not be empty: a host, a path, a key.
struct NonEmptyText: ExpressibleByArgument {
    let text: String
    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        text = argument
    }
    /// A default the program declares.
    init(default text: String) {
        precondition(!text.isEmpty, "an empty default for a value that must not be empty")
        self.text = text
    }
    static var expectedValue: String? { "a value that is not empty" }
    var defaultValueDescription: String { text }
}

/// A positive number of seconds; fractions allowed.
struct Seconds: ExpressibleByArgument {
    let value: Double
    init?(argument: String) {
        guard let value = Double(argument), value > 0, value.isFinite else { return nil }
        self.value = value
    }
    /// A default the program declares.
    init(default value: Double) {
        precondition(value > 0 && value.isFinite, "a default of seconds that is not a positive number")
        self.value = value
    }
    static var expectedValue: String? { "a positive number of seconds" }
    var defaultValueDescription: String { value.defaultValueDescription }
}

/// `1048576`, `512K`, `100M`, `1G` (binary multiples; a trailing `B` or `iB` is allowed): a positive byte count.
struct ByteSize: ExpressibleByArgument {
    let bytes: Int
    init?(argument: String) {
        var text = Substring(argument.uppercased())
        if text.hasSuffix("IB") { text = text.dropLast(2) } else if text.hasSuffix("B") { text = text.dropLast() }
        var multiplier = 1
        if let unit = text.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(unit)] {
            multiplier = 1 << (10 * power)
            text = text.dropLast()
        }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(text), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        self.bytes = bytes
    }
    /// A default the program declares.
    init(default bytes: Int) {
        precondition(bytes > 0, "a default size that is not positive")
        self.bytes = bytes
    }
    static var expectedValue: String? { "a size such as 1048576, 512K, 100M or 1G" }
    /// `100M`: in the largest unit that divides it, as it would be typed.
    var defaultValueDescription: String {
        for (unit, power) in [("T", 4), ("G", 3), ("M", 2), ("K", 1)] where bytes % (1 << (10 * power)) == 0 {
            return String(bytes >> (10 * power)) + unit
        }
        return String(bytes)
    }
}

/// An http(s) URL with a host and no path, query or trailing slash.
struct BaseURL: ExpressibleByArgument {
    let text: String
    init?(argument: String) {
        let lower = argument.lowercased()
        let rest = lower.hasPrefix("http://") ? lower.dropFirst(7) : lower.hasPrefix("https://") ? lower.dropFirst(8) : nil
        guard let rest, !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"),
              !argument.contains(where: { $0.isWhitespace }) else { return nil }
        text = argument
    }
    static var expectedValue: String? { "a base URL like http://127.0.0.1:9000 (no path)" }
}

extension SandboxLogLevel: ExpressibleByArgument {}
