/// What `chatctl export` writes: Markdown for people, one HTML file to open or
/// send, or JSON Lines (the `history --json` message objects) for scripts.
package enum ExportFormat: String, CaseIterable, Sendable {
    case md, html, jsonl
}
