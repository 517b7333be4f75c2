/// A conversation's history window followed by its outbox entries, indexed as one list.
public struct ConversationEntries: RandomAccessCollection, Sendable {
    let messages: [ShownMessage]
    let pending: [ShownMessage]

    public var startIndex: Int { 0 }
    public var endIndex: Int { messages.count + pending.count }

    public subscript(index: Int) -> ShownMessage {
        index < messages.count ? messages[index] : pending[index - messages.count]
    }
}
