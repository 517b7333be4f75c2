import QuickBloxAPI

/// `export --format jsonl`: one message object a line, oldest first, with the keys
/// `history --json` gives it (`JSONOutput.message`); with `--attachments DIR`, also
/// `downloaded`, the path each attachment was saved at (null for one that was not),
/// as `listen --download` writes it. No header, no footer: every line is a message.
package struct JSONLinesExportWriter: ExportWriter {
    let me: Int
    private var attachmentsSaved = false

    package init(me: Int) { self.me = me }

    package mutating func begin(_ header: ExportHeader) -> String {
        attachmentsSaved = header.attachmentsSaved
        return ""
    }

    package mutating func message(_ exported: ExportedMessage) -> String {
        var extra: [String: JSONValue] = [:]
        if attachmentsSaved && !exported.attachments.isEmpty {
            extra["downloaded"] = .array(exported.attachments.map { $0.savedPath.map(JSONValue.string) ?? .null })
        }
        let line = JSONOutput.message(exported.message, me: me, extra: extra)
        // Compact JSON has a line break only between tokens, where a space does as well.
        return (line.utf8.contains(UInt8(ascii: "\n")) ? line.replacingNewlines() : line) + "\n"
    }

    package mutating func end(count: Int) -> String { "" }
}

private extension String {
    func replacingNewlines() -> String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
