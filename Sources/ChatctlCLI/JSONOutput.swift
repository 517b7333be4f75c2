#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import QuickBloxAPI

/// `--json` output: one JSON document per line, keys sorted, so the shape is
/// stable for scripts. Keys are snake_case and mirror QuickBlox's.
enum JSONOutput {
    static func line(_ value: JSONValue) -> String { text(value) + "\n" }

    /// The value as compact JSON, without a line break.
    static func text(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSONValue always encodes; a failure here is a programmer error.
        guard let data = try? encoder.encode(value) else { preconditionFailure("JSONValue failed to encode") }
        return String(decoding: data, as: UTF8.self)
    }
}
