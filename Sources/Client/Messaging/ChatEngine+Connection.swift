#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import MessageCache
import XMPPTransport

/// Connecting, and the one reconnect loop (docs/protocol.md §7): capped, jittered backoff;
/// a refused token renewed over REST and tried again at once; bounded by the policy. Once
/// connected again, what was cut off is resent, the gap filled, the view brought up to date.
extension ChatEngine {
    /// Connects for a command that only sends or marks (`send`, `outbox flush`, `read`),
    /// joining the rooms of `dialogs`. A failure is the command's.
    package func connect(joining dialogs: [CachedDialog]) throws(Failure) {
        for dialog in dialogs { self.dialogs[dialog.id] = dialog }
        emit(.connection(.connecting))
        try connectOnce()
        cameOnline(again: false)
    }

    /// The first connect of `run`: it must succeed, unless the policy retries it (the chat
    /// view opens offline and keeps trying).
    func connectFirst() throws(Failure) {
        emit(.connection(.connecting))
        do {
            try connectOnce()
        } catch {
            guard policy.retriesFirstConnect else { throw error }
            try reconnect(after: error)
            return
        }
        cameOnline(again: false)
    }

    /// One attempt: the dialogs listed (when hearing them), the connect (with the token as it
    /// is now: a renewal may have replaced it), the rooms.
    private func connectOnce() throws(Failure) {
        if settings.dialogs != .none { try refreshDialogs() }
        try link.connect()
        try joinRooms()
        connectedAt = .now
    }

    /// The connection went (the link said so): what is in flight waits for the reconnect or
    /// goes back to the outbox, as the policy says; then the reconnect.
    func recover(from error: Failure) throws(Failure) {
        connected = false
        policy.backoff.connectionLasted((.now - connectedAt) / .seconds(1))
        outbox.connectionLost(error)
        emit(.connection(.lost(error)))
        reportOutbox()
        guard policy.attemptsPerLoss != 0 else { return }
        try reconnect(after: nil)
    }

    /// Waits and tries until connected, stopped, past the deadline, or the policy's bounds;
    /// `failed`: the attempt that just failed, if any (the first connect's).
    private func reconnect(after failed: Failure?) throws(Failure) {
        var lastFailure = failed
        var attempts = failed == nil ? 0 : 1
        var waitFirst = true
        while !stopped {
            let quiet = ContinuousClock.now - outbox.lastProgress
            if let limit = policy.attemptsPerLoss, attempts >= limit {
                return giveUp(lastFailure, attempts: attempts)
            }
            if let limit = policy.quietLimit, quiet >= .milliseconds(Int64(limit * 1000)) {
                return giveUp(lastFailure, attempts: attempts)
            }
            if waitFirst {
                let ceiling = policy.backoff.currentCeiling
                let wait = policy.backoff.nextDelay()
                if let deadline, ContinuousClock.now + .milliseconds(Int64(wait * 1000)) >= deadline { stopped = true; return }
                emit(.connection(.retrying(seconds: wait, ceiling: ceiling, after: lastFailure)))
                pause(seconds: wait)
                if stopped { return }
                emit(.connection(.connecting))
            }
            waitFirst = true
            attempts += 1
            do {
                try connectOnce()
                cameOnline(again: everConnected)
                return
            } catch where error.kind == .authentication {
                // The session may have gone while chat was down: renew it over REST and try at
                // once with the new token. The same token still good over REST: chat's refusal stands.
                let refused = service.api.token
                var renewed = false
                do { renewed = try refreshSession() } catch {
                    // The session cannot be kept (no password to renew it): `listen` ends (exit 4).
                    if policy.refusalEnds && policy.attemptsPerLoss == nil { throw error }
                }
                if renewed && service.api.token != refused {
                    attempts -= 1
                    waitFirst = false
                    continue
                }
                if policy.refusalEnds {
                    guard policy.attemptsPerLoss != nil else { throw error }
                    return giveUp(error, attempts: attempts)
                }
                lastFailure = error
            } catch {
                lastFailure = error
            }
            if everConnected && policy.refusalEnds { try keepSessionAlive() }
        }
    }

    /// No more attempts: what waits for the reconnect goes back to the outbox.
    private func giveUp(_ failure: Failure?, attempts: Int) {
        let last = failure ?? Failure(.temporary, "the connection could not be made again")
        let reason = Failure(last.kind, "\(last.message); gave up reconnecting after \(attempts) attempts", hint: last.hint)
        outbox.giveUp(reason)
        emit(.connection(.gaveUp(reason)))
        reportOutbox()
    }

    /// Connected (the first time or again): told, then what a gap left behind is caught up.
    private func cameOnline(again: Bool) {
        connected = true
        everConnected = true
        if !again {
            // What was sent before this second is history, not news: a gap filled after a
            // reconnect starts here. (Times are whole seconds, so a message sent in this very
            // second before we were ready may still count as news.)
            let ready = Int(Date().timeIntervalSince1970)
            for id in dialogs.keys { lastSeen[id] = max(lastSeen[id] ?? 0, ready) }
            startSessionUpkeep()
        }
        emit(.connection(.connected(following: settings.dialogs == .none ? 0 : dialogs.count, again: again)))
        if !outbox.stranded.isEmpty || outbox.disconnected != nil {
            do { try link.joinRooms(of: outbox.dialogsStranded) } catch { outbox.giveUp(error) }
            outbox.resendStranded()
        }
        if again { fillGaps() }
        guard settings.reportsDialogList || followed != nil else { return }
        // The chat view: what waited in the outbox, the open dialog, the unread counts, read marks.
        flushOutbox()
        if let followed { catchUp(followed) }
        if again { refreshPresence() }
        if let followed { askPresence(following: followed) }
        _ = try? service.refreshUnreadCounts()
        reportDialogs()
        // Then the names as the server has them now; the list again if one changed.
        if settings.reportsDialogList && !again && refreshNames() { reportDialogs() }
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
        while !stopped && ContinuousClock.now < end {
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
    var label: String { name.isEmpty ? id : name }
}
