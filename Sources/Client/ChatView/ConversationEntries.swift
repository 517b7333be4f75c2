/// A conversation's history window followed by its outbox entries, indexed as one list.
package struct ConversationEntries: RandomAccessCollection, Sendable {
    let messages: [ShownMessage]
    let pending: [ShownMessage]

    package var startIndex: Int { 0 }
    package var endIndex: Int { messages.count + pending.count }

    package subscript(index: Int) -> ShownMessage {
        index < messages.count ? messages[index] : pending[index - messages.count]
    }
}
