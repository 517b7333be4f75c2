#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import MessageCache
import XMPPTransport

/// Connecting, and the one reconnect loop (docs/protocol.md §7): capped, jittered backoff;
/// a refused token renewed over REST and tried again at once; bounded by the policy. Once
/// connected again, what was cut off is resent, the gap filled, the view brought up to date.
/// `ChatEngineCore` decides each step; what is here is the I/O of one.
extension ChatEngine {
    /// Connects for a command that only sends or marks (`send`, `outbox flush`, `read`),
    /// joining the rooms of `dialogs`. A failure is the command's.
    package func connect(joining dialogs: [CachedDialog]) throws(Failure) {
        for dialog in dialogs { feed(.dialogKnown(dialog)) }
        try drive(.connectRequested)
    }

    /// The connection went (the link said so): what is in flight waits for the reconnect or
    /// goes back to the outbox, as the policy says; then the reconnect loop, until connected,
    /// stopped, past the deadline, or the policy's bounds.
    func recover(from error: Failure) throws(Failure) {
        try drive(.recover(error, at: .now, lastAck: outbox.lastProgress))
    }

    /// One attempt: the dialogs listed (when hearing them), the connect (with the token as it
    /// is now: a renewal may have replaced it), the rooms.
    func connectOnce() throws(Failure) {
        if settings.dialogs != .none { try refreshDialogs() }
        try link.connect()
        askContacts()
        try joinRooms()
        if settings.tracksBlocking { blockListStale = true }
    }

    /// Chat refused the token: the session renewed over REST, and whether that gave a new one.
    func renewSession() -> ChatEngineCore.Renewal {
        let refused = service.api.token
        do {
            return try refreshSession() && service.api.token != refused ? .renewed : .unchanged
        } catch {
            return .failed(error)
        }
    }

    /// The view's first connect: everyone in its dialogs as the server has them now, so a
    /// name changed since it was cached shows (its header, its cells, the list).
    func refreshNames() -> Bool {
        guard let all = try? service.dialogs(type: nil, limit: nil, source: .cacheOnly) else { return false }
        let changed = names.refresh(Set(all.flatMap(\.occupantIDs)).subtracting([link.me]), service: service)
        if !changed.isEmpty { emit(.names(changed)) }
        return !changed.isEmpty
    }

    /// The rooms of the dialogs heard or sent to; with `skipsRoomsThatFail`, one at a time.
    func joinRooms() throws(Failure) {
        guard settings.skipsRoomsThatFail else { return try link.joinRooms(of: Array(dialogs.values)) }
        for dialog in dialogs.values.sorted(by: { $0.id < $1.id }) where dialog.type != .private {
            do { try link.joinRooms(of: [dialog]) } catch {
                // A lost connection is not the room's fault.
                guard link.isConnected else { throw error }
                emit(.notice(.failed(.joinRoom(dialog.label), error)))
            }
        }
    }

    /// Waits `total` seconds, carrying out a worker's commands as they come (the view's
    /// sends wait in the outbox, read marks for later).
    func pause(seconds total: Double) {
        let end = ContinuousClock.now + .milliseconds(Int64(total * 1000))
        while !core.isStopped && ContinuousClock.now < end {
            let left = (end - .now) / .seconds(1)
            if let worker {
                worker.wait(seconds: left)
                takeCommands()
            } else {
                usleep(useconds_t(max(0, min(settings.turnSeconds, left)) * 1_000_000))
            }
        }
    }
}

extension CachedDialog {
    /// Its name, or its id when it has none, for a line that names it.
    var label: String { name.isEmpty ? id.rawValue : name }
}
