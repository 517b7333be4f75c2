/// Turns an export's parts into text of one format: the document's start, each
/// message in order, its end. A writer keeps only what it needs between messages
/// (the day of the last one), so a dialog of any length goes through it in bounded memory.
package protocol ExportWriter {
    mutating func begin(_ header: ExportHeader) -> String
    mutating func message(_ message: ExportedMessage) -> String
    /// `count`: how many messages were written.
    mutating func end(count: Int) -> String
}

/// The writer of a format.
extension ExportFormat {
    /// `zone`: whose clock times are shown on (people's formats; JSON keeps unix seconds).
    package func writer(me: Int, zone: TimeText.Zone = .local) -> any ExportWriter {
        switch self {
        case .md: MarkdownExportWriter(zone: zone)
        case .html: HTMLExportWriter(zone: zone)
        case .jsonl: JSONLinesExportWriter(me: me)
        }
    }
}
