import MessageCache

/// A dialog's cached messages, oldest first, read and written a page at a time:
/// each page is read by position (date, then id: the cache's index, so nothing is
/// skipped or repeated at a page's edge), prepared, written, and let go before the
/// next is read. Only one page is ever held, whatever the dialog's length.
package struct ExportStream {
    /// Messages read and written at a time.
    package var pageSize: Int
    /// Only messages with `since < date_sent < before`, as `history` takes them.
    package var since: Int?
    package var before: Int?
    /// Up to `limit` messages just after `(afterDate, afterID)`, oldest first
    /// (`ChatCache.messages(dialogID:afterDate:id:limit:)`).
    package var page: (_ afterDate: Int, _ afterID: String, _ limit: Int) throws -> [CachedMessage]

    package init(pageSize: Int = 500, since: Int? = nil, before: Int? = nil,
                 page: @escaping (_ afterDate: Int, _ afterID: String, _ limit: Int) throws -> [CachedMessage]) {
        precondition(pageSize > 0, "a page holds at least one message")
        self.pageSize = pageSize; self.since = since; self.before = before; self.page = page
    }

    /// Writes the whole document through `output`, one call per page (and one for its
    /// start and its end). `prepare` makes each message what the writer takes (its
    /// names, its attachments' files). Returns how many messages were written.
    @discardableResult
    package func run(_ writer: inout some ExportWriter, header: ExportHeader,
                     prepare: (CachedMessage) throws -> ExportedMessage,
                     output: (String) throws -> Void) throws -> Int {
        try output(writer.begin(header))
        // Past every id of `since`'s second: the range is `since < date_sent`.
        var position = since.map { ($0, Self.afterEveryID) } ?? (Int(Int64.min), "")
        var count = 0
        reading: while true {
            let messages = try page(position.0, position.1, pageSize)
            var text = ""
            for message in messages {
                if let before, message.dateSent >= before {
                    try output(text)
                    break reading
                }
                text += writer.message(try prepare(message))
                count += 1
            }
            try output(text)
            guard messages.count == pageSize, let last = messages.last else { break }
            position = (last.dateSent, last.id)
        }
        try output(writer.end(count: count))
        return count
    }

    /// Sorts after any message id (ids are ASCII; SQLite compares text bytewise).
    static let afterEveryID = "\u{10FFFF}"
}
