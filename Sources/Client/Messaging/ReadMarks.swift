import MessageCache
import ChatIdentifiers

/// Messages a person saw whose read mark (REST, docs/protocol.md §6) is still to be sent,
/// by dialog, and when to try again: a mark that fails waits a while and goes again,
/// with whatever was seen meanwhile. Pure: the clock's instants are passed in.
struct ReadMarks {
    private var pending: [DialogID: [String: CachedMessage]] = [:]
    private var retryAt: ContinuousClock.Instant?
    /// The last attempt failed (a notice was given for this run of failures).
    private(set) var failing = false

    /// Due now: something waits, and no failure asked to wait.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        !pending.isEmpty && retryAt.map { now >= $0 } ?? true
    }

    mutating func add(_ messages: [CachedMessage], dialogID: DialogID) {
        guard !messages.isEmpty else { return }
        for message in messages { pending[dialogID, default: [:]][message.id] = message }
    }

    /// Everything waiting, by dialog in id order, each dialog's messages oldest first; taken out.
    mutating func take() -> [(dialogID: DialogID, messages: [CachedMessage])] {
        defer { pending.removeAll() }
        return pending.sorted { $0.key < $1.key }.map { ($0.key, $0.value.values.sorted { ($0.dateSent, $0.id) < ($1.dateSent, $1.id) }) }
    }

    /// These could not be marked: kept, and tried again `retryAfter` from `now`. True when
    /// this failure starts a run of them (worth telling).
    mutating func failed(_ messages: [CachedMessage], dialogID: DialogID, at now: ContinuousClock.Instant, retryAfter: Duration) -> Bool {
        add(messages, dialogID: dialogID)
        retryAt = now + retryAfter
        defer { failing = true }
        return !failing
    }

    mutating func succeeded() {
        retryAt = nil
        failing = false
    }
}
