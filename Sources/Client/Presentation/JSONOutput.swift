import QuickBloxAPI

/// `--json` output: one JSON document per line, keys sorted, so the shape is
/// stable for scripts. Keys are snake_case and mirror QuickBlox's.
package enum JSONOutput {
    package static func line(_ value: JSONValue) -> String { text(value) + "\n" }

    /// The value as compact JSON, without a line break.
    package static func text(_ value: JSONValue) -> String { value.compactText }
}
