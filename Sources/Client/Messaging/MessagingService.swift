#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport

/// The user's dialogs and messages: fetched from the REST API into the cache,
/// read back from the cache (also offline), and sent through the outbox so
/// nothing is lost. One instance per thread (the cache connection is not Sendable).
package final class MessagingService {
    package let api: QuickBloxClient
    package let cache: ChatCache
    /// The logged-in user's id.
    package let me: Int
    let now: () -> Int
    /// Outbox ids: ObjectIds, like the stanza ids of messages sent over chat.
    private var idGenerator = ObjectIDGenerator()

    package init(api: QuickBloxClient, cache: ChatCache, me: Int, now: @escaping () -> Int = { Int(Date().timeIntervalSince1970) }) {
        self.api = api; self.cache = cache; self.me = me; self.now = now
    }

    // MARK: dialogs

    /// Fetches dialogs changed since the last sync (all of them the first time).
    @discardableResult
    package func syncDialogs() throws(Failure) -> Int {
        let cursor = try cached { () throws(MessageCacheError) in try cache.dialogsUpdatedAtCursor() }
        // The time asked, not answered: what changed while the answer came may be missing.
        let askedAt = now()
        let dialogs: [QBDialog]
        do { dialogs = try api.allDialogs(DialogQuery(updatedAfter: cursor)) } catch {
            throw Failure(describing: error, doing: "list dialogs")
        }
        // Best effort: a cache that cannot write it (read-only) only costs a sync next time.
        try? cache.recordDialogsSynced(at: askedAt)
        guard !dialogs.isEmpty else { return 0 }
        let records = dialogs.map(CacheRecords.dialog)
        try cached { () throws(MessageCacheError) in
            try cache.upsertDialogs(records)
            if let newest = records.map(\.updatedAt).max(), newest > 0 { try cache.advanceDialogsUpdatedAtCursor(newest) }
        }
        try fetchUsers(dialogs.flatMap(\.occupantIDs))
        return dialogs.count
    }

    /// `withRawJSON: false`: each `rawJSON` left empty (ChatCache.dialogs).
    package func dialogs(type: DialogType?, limit: Int?, source: DataSource, withRawJSON: Bool = true) throws(Failure) -> [CachedDialog] {
        if source == .server { try syncDialogs() }
        return try cached { () throws(MessageCacheError) in try cache.dialogs(type: type, limit: limit, withRawJSON: withRawJSON) }
    }

    /// The dialog a reference names. `@login` finds (or, when `createPrivate`,
    /// creates) the private dialog with that user; a name must match exactly one dialog
    /// (`dialog(named:)`: every name `chatctl dialogs` shows).
    package func resolve(_ reference: DialogReference, source: DataSource, createPrivate: Bool) throws(Failure) -> CachedDialog {
        switch reference {
        case .id(let id):
            if let dialog = try cached({ () throws(MessageCacheError) in try cache.dialog(id: id) }) { return dialog }
            if source == .server {
                try syncDialogs()
                if let dialog = try cached({ () throws(MessageCacheError) in try cache.dialog(id: id) }) { return dialog }
            }
            throw Failure(.invalidInput, "no dialog with id \(id)", hint: source == .cacheOnly ? "it is not in the cache; try without --offline" : "run 'chatctl dialogs' to see yours")
        case .name(let name):
            return try dialog(named: name, source: source, createPrivate: createPrivate)
        case .user(let login):
            return try privateDialog(login: login, source: source, create: createPrivate).dialog
        }
    }

    /// The private dialog with `@login`, and whether this call created it (when
    /// `create`; otherwise a missing one is an error).
    package func privateDialog(login: String, source: DataSource, create: Bool) throws(Failure) -> (dialog: CachedDialog, created: Bool) {
        let user = try user(login: login, source: source)
        if user.id == me { throw Failure(.invalidInput, "@\(login) is you; a private dialog needs another user") }
        if source == .cacheOnly {
            if let dialog = try cached({ () throws(MessageCacheError) in try cache.privateDialog(withUserID: user.id) }) { return (dialog, false) }
            throw Failure(.invalidInput, "no private dialog with @\(login) in the cache", hint: "try without --offline")
        }
        if let dialog = try privateDialog(withUserID: user.id, create: false) { return (dialog, false) }
        guard create else { throw Failure(.invalidInput, "no private dialog with @\(login) yet", hint: "send a message to create it") }
        return (try createDialog(type: .private, name: nil, occupants: [user.id]), true)
    }

    package func createDialog(type: QBDialogType, name: String?, occupants: [Int]) throws(Failure) -> CachedDialog {
        let dialog: QBDialog
        do { dialog = try api.createDialog(type: type, name: name, occupantIDs: occupants) } catch {
            throw Failure(describing: error, doing: "create dialog")
        }
        let record = CacheRecords.dialog(dialog)
        try cached { () throws(MessageCacheError) in try cache.upsertDialogs([record]) }
        return record
    }

    // MARK: users

    package func user(login: String, source: DataSource) throws(Failure) -> CachedUser {
        if let user = try cached({ () throws(MessageCacheError) in try cache.user(login: login) }) { return user }
        // `@bob@example.com`: an email address names a user as a login does.
        if login.contains("@"), let user = try user(email: login, source: source) { return user }
        if source == .cacheOnly { throw Failure(.invalidInput, "user @\(login) is not in the cache", hint: "try without --offline") }
        let found: QBUser
        do { found = try api.user(login: login) } catch {
            if error.status == 404 { throw Failure(.invalidInput, "no user with login '\(login)'") }
            throw Failure(describing: error, doing: "find user @\(login)")
        }
        return try remember(found)
    }

    /// Display names (full name, else login) for user ids, from the cache.
    package func displayNames(_ ids: Set<Int>) -> [Int: String] {
        var names: [Int: String] = [:]
        for id in ids {
            if let user = try? cache.user(id: id) { names[id] = user.fullName.flatMap { $0.isEmpty ? nil : $0 } ?? user.login }
        }
        return names
    }

    /// Caches the users not cached yet (names for transcripts), or with `again` all of them
    /// as the server has them now (a name changed since); best effort.
    package func fetchUsers(_ ids: [Int], again: Bool = false) throws(Failure) {
        let missing = Set(ids).filter { again || (try? cache.user(id: $0)) == nil }.sorted()
        var start = 0
        while start < missing.count {
            let chunk = Array(missing[start..<min(start + 100, missing.count)])
            start += 100
            guard let page = try? api.users(ids: chunk, page: 1, perPage: 100) else { continue }
            let records = page.items.map(CacheRecords.user)
            try cached { () throws(MessageCacheError) in try cache.upsertUsers(records) }
        }
    }

    // MARK: history

    /// Fetches up to `limit` of the newest messages (within the bounds) into the cache.
    @discardableResult
    package func syncHistory(dialogID: DialogID, limit: Int, before: Int?, since: Int?, markRead: Bool = false) throws(Failure) -> Int {
        var fetched = 0
        var skip = 0
        while fetched < limit {
            let pageSize = min(100, limit - fetched)
            let page: QBMessagePage
            do {
                page = try api.messages(MessageQuery(dialogId: dialogID, limit: pageSize, skip: skip, sentBefore: before,
                                                     sentAfter: since, markAsRead: markRead))
            } catch {
                if error.status == 403 { throw Failure(.invalidInput, "you are not an occupant of dialog \(dialogID)") }
                if error.status == 404 { throw Failure(.invalidInput, "no dialog with id \(dialogID)") }
                throw Failure(describing: error, doing: "fetch history")
            }
            let records = page.items.map(CacheRecords.message)
            try cached { () throws(MessageCacheError) in
                _ = try cache.upsertMessages(records)
                if before == nil, let newest = records.map(\.dateSent).max() { try cache.advanceLastSyncedDateSent(newest, dialogID: dialogID) }
            }
            try fetchUsers(page.items.map(\.senderId))
            fetched += page.items.count
            skip += page.items.count
            if page.items.count < pageSize { break }
        }
        return fetched
    }

    /// Messages of a dialog sent after `since` that the cache did not have
    /// yet, oldest first; they are cached. (Filling a gap after a reconnect.)
    /// With `alsoCachedSince`, also those the cache has that were sent from then on
    /// (another process of the account may have cached them first; the caller knows
    /// which it has seen).
    package func newMessages(dialogID: DialogID, since: Int, alsoCachedSince: Int? = nil) throws(Failure) -> [CachedMessage] {
        try missedMessages(dialogID: dialogID, since: since, alsoCachedSince: alsoCachedSince).messages
    }

    /// `newMessages`, a page at a time, so a long gap costs a page of memory, not the whole
    /// of it: only the messages not sent by `excludedSender` are kept (a stream's own lines,
    /// thousands of them, are cached and dropped), with the newest date the server had
    /// (how far the gap is known to be filled).
    package func missedMessages(dialogID: DialogID, since: Int, alsoCachedSince: Int? = nil,
                                excludedSender: Int? = nil) throws(Failure) -> (messages: [CachedMessage], newest: Int?) {
        var kept: [CachedMessage] = []
        var newest: Int?
        try forEachPageSent(dialogID: dialogID, after: since, doing: "fetch missed messages") { (page) throws(Failure) in
            let records = page.map(CacheRecords.message)
            newest = records.reduce(newest) { max($0 ?? $1.dateSent, $1.dateSent) }
            try cached { () throws(MessageCacheError) in
                for record in records where record.senderID != excludedSender {
                    if record.dateSent >= (alsoCachedSince ?? Int.max) { kept.append(record); continue }
                    if try cache.message(id: record.id) == nil { kept.append(record) }
                }
                _ = try cache.upsertMessages(records)
            }
        }
        return (kept.sorted { ($0.dateSent, $0.id) < ($1.dateSent, $1.id) }, newest)
    }

    /// Every message of the dialog sent after `after`, however many pages that
    /// takes (bounded, in case a server ignores `skip`).
    func messagesSent(dialogID: DialogID, after: Int, doing what: String) throws(Failure) -> [QBMessage] {
        var messages: [QBMessage] = []
        try forEachPageSent(dialogID: dialogID, after: after, doing: what) { messages += $0 }
        return messages
    }

    /// `messagesSent` a page at a time, each handed to `body` and then let go.
    func forEachPageSent(dialogID: DialogID, after: Int, doing what: String,
                         _ body: ([QBMessage]) throws(Failure) -> Void) throws(Failure) {
        var skip = 0
        for _ in 0..<1000 {
            let page: QBMessagePage
            do { page = try api.messages(MessageQuery(dialogId: dialogID, limit: 100, skip: skip, sentAfter: after)) } catch {
                throw Failure(describing: error, doing: what)
            }
            try body(page.items)
            skip += page.items.count
            if page.items.count < 100 { break }
        }
    }

    package func history(dialogID: DialogID, limit: Int, before: Int?, since: Int?, source: DataSource, markRead: Bool) throws(Failure) -> [CachedMessage] {
        if source == .server { try syncHistory(dialogID: dialogID, limit: limit, before: before, since: since, markRead: markRead) }
        return try cached { () throws(MessageCacheError) in try cache.history(dialogID: dialogID, limit: limit, before: before, since: since) }
    }

    // MARK: sending

    /// Puts a message in the outbox, claimed by `owner` (this process), before
    /// anything is sent; it leaves only on delivery. `attachments` go with it
    /// (blobs already uploaded: each `id` a blob uid); without text its body is
    /// `[attachment]` (`body(_:attachments:)`). `custom`: parameters it is sent with
    /// (a reply's or a forward's, `QBQuotedMessages`), kept with the entry.
    package func enqueue(_ text: String, attachments: [QBAttachment] = [], to dialogID: DialogID, owner: Int,
                         custom: [String: String] = [:]) throws(Failure) -> String {
        let id = idGenerator.next(unixTime: UInt32(truncatingIfNeeded: now())).rawValue
        _ = try cached { () throws(MessageCacheError) in
            try cache.enqueue(dialogID: dialogID, text: Self.body(text, attachments: attachments), clientMessageID: id,
                              createdAt: now(), owner: owner, attachmentsJSON: CacheRecords.attachmentsJSON(attachments),
                              customJSON: CacheRecords.customJSON(custom))
        }
        return id
    }

    /// Puts a message with files still to upload in the outbox (`send --attach`),
    /// claimed by `owner`: the entry and a row per file (`OutboxUpload`, each file
    /// already kept where a later process can read it) in one transaction, before
    /// any byte is uploaded. `OutboxUploader.finish` then makes it ready to send.
    package func enqueue(_ text: String, uploads: [OutboxUpload], to dialogID: DialogID, owner: Int) throws(Failure) -> OutboxEntry {
        let id = idGenerator.next(unixTime: UInt32(truncatingIfNeeded: now())).rawValue
        let body = text.isEmpty && !uploads.isEmpty ? CachedMessage.attachmentOnlyText : text
        let entry = try cached { () throws(MessageCacheError) in
            try cache.enqueue(dialogID: dialogID, text: body, clientMessageID: id, createdAt: now(), owner: owner, uploads: uploads)
            return try cache.outboxEntry(clientMessageID: id)
        }
        guard let entry else { throw Failure(.failure, "message cache: the outbox entry \(id) was not kept") }
        return entry
    }

    /// The body a message is sent with: its text, or for a message that is only
    /// attachments `[attachment]`, as the QuickBlox apps send it (docs/protocol.md §8).
    package static func body(_ text: String, attachments: [QBAttachment]) -> String {
        text.isEmpty && !attachments.isEmpty ? CachedMessage.attachmentOnlyText : text
    }

    /// Sends one outbox entry over REST (`send_to_chat=1`), with its attachments as
    /// a JSON array (docs/protocol.md §8); on the server's reply the entry leaves
    /// the outbox and the stored message enters history.
    /// The client id travels as a custom field so a retried send can be recognised:
    /// after an answer that leaves it open whether the server stored the message
    /// (a 5xx, a timeout), history is checked for it before it is sent again
    /// (docs/protocol.md §6), as `outbox flush` does.
    package func deliverViaREST(clientMessageID: String, text: String, attachments: [QBAttachment] = [],
                               dialogID: DialogID, custom: [String: String] = [:]) throws(Failure) -> CachedMessage {
        let text = Self.body(text, attachments: attachments)
        let firstSent = now()
        let retry = api.retryPolicy
        var attempt = 0
        while true {
            attempt += 1
            let message: QBMessage
            do {
                message = try api.sendMessage(dialogId: dialogID, text: text, sendToChat: true, markable: true,
                                              custom: custom.mapValues { .string($0) }.merging([Self.clientIDField: .string(clientMessageID)]) { $1 },
                                              attachments: attachments)
            } catch {
                let failure = Failure(describing: error, doing: "send")
                if failure.isPermanent { throw refused(clientMessageID: clientMessageID, dialogID: dialogID, failure, status: error.status) }
                guard Self.mayHaveBeenStored(error), attempt < retry.maxAttempts else { throw failure }
                retry.sleep(retry.delay(afterAttempt: attempt, retryAfter: nil))
                // A history that cannot be read leaves the question open: the entry stays in the outbox.
                guard let stored = try? storedMessages(dialogID: dialogID, since: firstSent) else { throw failure }
                if let record = stored[clientMessageID] {
                    _ = try cached { () throws(MessageCacheError) in try cache.markDelivered(clientMessageID: clientMessageID, serverMessage: record) }
                    return record
                }
                continue
            }
            let record = CacheRecords.message(message)
            _ = try cached { () throws(MessageCacheError) in try cache.markDelivered(clientMessageID: clientMessageID, serverMessage: record) }
            return record
        }
    }

    /// A failure after which the server may hold the message all the same: it
    /// answered 5xx, or the request went out and no answer came. A connection
    /// that never opened carried nothing.
    static func mayHaveBeenStored(_ error: QuickBloxError) -> Bool {
        switch error.kind {
        case .http(let status): return status >= 500
        case .transport(let kind): return kind == .timedOut || kind == .other
        case .invalidResponse: return false
        }
    }

    /// The custom message field that carries the outbox id.
    package static let clientIDField = "chatctl_client_id"

    package static func typeName(_ type: DialogType) -> String {
        switch type {
        case .private: return "private"
        case .group: return "group"
        case .publicGroup: return "public"
        default: return "type \(type.rawValue)"
        }
    }

    package func cached<T>(_ body: () throws(MessageCacheError) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw Failure(cache: error) }
    }
}

extension MessagingService {
    /// Claims the outbox for a flush (so concurrent flushes never share an
    /// entry) and removes the entries the server already has: any entry may
    /// have reached it (a sender killed between the server's ack and removing
    /// it, a reply lost on the way back), so each dialog's history since its
    /// oldest entry is read once, matching by `_id` (chat) or client id (REST).
    /// Returns the rest, by dialog, to be sent again under their own ids.
    /// `dropped`: entries that left the outbox unsent, each with why: a blank one, or one
    /// whose dialog the server refuses for good (403, 404).
    package func claimForFlush(owner: Int) throws(Failure) -> (alreadyThere: Int, toSend: [(CachedDialog, [OutboxEntry])], failures: [Failure],
                                                               dropped: [Failure]) {
        var alreadyThere = 0
        var toSend: [(CachedDialog, [OutboxEntry])] = []
        var failures: [Failure] = []
        let (entries, blank) = try dropBlank(try cached { () throws(MessageCacheError) in try cache.claim(limit: 10_000, owner: owner) })
        var dropped = blank
        for (dialogID, group) in Dictionary(grouping: entries, by: \.dialogID).sorted(by: { $0.key < $1.key }) {
            do {
                let stored = try storedMessages(dialogID: dialogID, since: group.map(\.createdAt).min() ?? 0)
                var remaining: [OutboxEntry] = []
                for entry in group.sorted(by: { ($0.createdAt, $0.rowID) < ($1.createdAt, $1.rowID) }) {
                    if let message = stored[entry.clientMessageID] {
                        _ = try cached { () throws(MessageCacheError) in try cache.markDelivered(clientMessageID: entry.clientMessageID, serverMessage: message) }
                        alreadyThere += 1
                    } else {
                        remaining.append(entry)
                    }
                }
                guard !remaining.isEmpty else { continue }
                toSend.append((try resolve(.id(dialogID), source: .server, createPrivate: false), remaining))
            } catch where error.isPermanent {
                for entry in group { dropped.append(refused(clientMessageID: entry.clientMessageID, dialogID: dialogID, error, status: nil)) }
            } catch {
                for entry in group { noteFailure(clientMessageID: entry.clientMessageID, owner: owner, error: error) }
                failures.append(error)
            }
        }
        return (alreadyThere, toSend, failures, dropped)
    }

    /// The dialog's messages sent since `since` (less a margin for clock skew),
    /// keyed by `_id` and by the outbox id a REST send carries.
    func storedMessages(dialogID: DialogID, since: Int) throws(Failure) -> [String: CachedMessage] {
        var found: [String: CachedMessage] = [:]
        for message in try messagesSent(dialogID: dialogID, after: since - 120, doing: "check history") {
            let record = CacheRecords.message(message)
            found[message.id] = record
            if let clientID = message.raw[Self.clientIDField]?.stringValue { found[clientID] = record }
        }
        return found
    }

    /// Records a failed delivery attempt on an outbox entry (it stays there).
    package func noteFailure(clientMessageID: String, owner: Int, error: Failure) {
        try? cache.releaseClaim(clientMessageID: clientMessageID, owner: owner, error: error.message)
    }

    package func pendingOutbox() throws(Failure) -> [OutboxEntry] {
        try cached { () throws(MessageCacheError) in try cache.pending() }
    }

    /// One dialog's undelivered messages, oldest first.
    package func pendingOutbox(dialogID: DialogID) throws(Failure) -> [OutboxEntry] {
        try pendingOutbox().filter { $0.dialogID == dialogID }
    }

    /// One undelivered message by its client id; nil once it has left the outbox.
    package func outboxEntry(clientMessageID: String) throws(Failure) -> OutboxEntry? {
        try cached { () throws(MessageCacheError) in try cache.outboxEntry(clientMessageID: clientMessageID) }
    }

    /// Removes an undelivered message without sending it (`outbox drop`), unless
    /// a live process is sending it right now.
    package func dropFromOutbox(clientMessageID: String) throws(Failure) -> ChatCache.DropOutcome {
        try cached { () throws(MessageCacheError) in try cache.drop(clientMessageID: clientMessageID) }
    }
}
