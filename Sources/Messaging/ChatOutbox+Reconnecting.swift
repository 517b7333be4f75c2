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
import QuickBloxAPI
import XMPPTransport

/// A sender that outlives a cut chat stream (`send --lines`, docs/protocol.md §7):
/// what was not acknowledged stays claimed, the connection is re-made with the
/// listener's capped, jittered backoff, and after the server's history is asked
/// which of those arrived (as `outbox flush` does), the rest goes again under the
/// same ids, in order. It gives up after a few attempts or `giveUpAfter` seconds
/// without an acknowledgement; the rest then waits in the outbox, as before.
extension ChatOutbox {
    /// Attempts per lost connection, each within the chat connect timeout.
    static let attemptsPerLoss = 4
    /// Seconds without any acknowledgement after which no attempt is started.
    static let giveUpAfter = 30.0

    /// A message waiting for a reconnect.
    struct Stranded {
        let clientMessageID: String
        let dialog: CachedDialog
        let text: String
        let attachments: [QBAttachment]
        let queuedAt: Int
    }

    /// A lost connection: kept for a reconnect when `reconnects`, else given up.
    func connectionFailed(_ error: Failure) {
        guard reconnects, failure == nil else { return lose(error) }
        guard disconnected == nil else { return }
        recordAcknowledged()
        disconnected = error
        let cut = inFlight.sorted { $0.value.order < $1.value.order }
        inFlight.removeAll()
        let waiting = stranded
        stranded = cut.map { Stranded(clientMessageID: $0.key.rawValue, dialog: $0.value.dialog, text: $0.value.text,
                                      attachments: $0.value.attachments, queuedAt: $0.value.sentAt) } + waiting
    }

    /// When the connection was lost: connects again, rejoins the rooms and resends
    /// what is stranded; gives up within the bounds above (everything stranded is then
    /// released to the outbox, and later messages are only queued).
    package func reconnectIfLost() {
        guard let lost = disconnected else { return }
        onNotice("chat connection lost (\(lost.message)); reconnecting")
        var lastError = lost
        var attempts = 0
        var renewed = false
        var waitFirst = true
        while true {
            let quiet = ContinuousClock.now - lastProgress
            guard attempts < Self.attemptsPerLoss, quiet < .seconds(Self.giveUpAfter) else {
                return giveUp(Failure(lastError.kind, "\(lastError.message); gave up reconnecting after \(attempts) attempts",
                                             hint: lastError.hint))
            }
            if waitFirst { usleep(useconds_t(backoff.nextDelay() * 1_000_000)) }
            waitFirst = true
            attempts += 1
            if let token = service.api.token { link.useSessionToken(token) }
            do {
                try link.connect()
                try link.joinRooms(of: dialogsStranded())
                break
            } catch where error.kind == .authentication && !renewed {
                // The session may have gone while chat was down: renew it over REST, then try at once.
                renewed = true
                let refused = service.api.token
                _ = try? service.api.currentSession()
                guard service.api.token != refused else { return giveUp(error) }
                attempts -= 1
                waitFirst = false
            } catch {
                lastError = error
                onNotice("reconnect failed (\(error.message))")
            }
        }
        disconnected = nil
        onNotice("reconnected")
        resendStranded()
    }

    /// The dialogs of the stranded messages, each once, in order.
    private func dialogsStranded() -> [CachedDialog] {
        var seen: Set<String> = []
        return stranded.compactMap { seen.insert($0.dialog.id).inserted ? $0.dialog : nil }
    }

    /// Each run of one dialog's stranded messages: those the server's history has are
    /// recorded as delivered, the rest sent again under their ids. A history that
    /// cannot be read gives up (a resend without it could store a message twice on a
    /// server that does not recognise the id, docs/protocol.md §7).
    private func resendStranded() {
        var runs: [[Stranded]] = []
        for message in stranded {
            if let last = runs.last?.last, last.dialog.id == message.dialog.id { runs[runs.count - 1].append(message) } else { runs.append([message]) }
        }
        stranded.removeAll()
        for (index, run) in runs.enumerated() {
            let dialog = run[0].dialog
            let stored: [String: CachedMessage]
            do { stored = try service.storedMessages(dialogID: dialog.id, since: run.map(\.queuedAt).min() ?? 0) } catch {
                stranded = runs[index...].flatMap { $0 }
                return giveUp(error)
            }
            var again: [(clientMessageID: String, text: String, attachments: [QBAttachment])] = []
            for message in run {
                if let found = stored[message.clientMessageID] {
                    if (try? service.cache.markDelivered(clientMessageID: message.clientMessageID, serverMessage: found)) != nil {
                        delivered += 1
                        onDelivered?(found)
                    } else {
                        release(message.clientMessageID)
                        undelivered += 1
                    }
                } else {
                    again.append((message.clientMessageID, message.text, message.attachments))
                }
            }
            do { try resend(again, to: dialog) } catch {
                // No address for the dialog: these wait in the outbox.
                for message in again { release(message.clientMessageID) }
                undelivered += again.count
                if failure == nil { failure = error }
            }
            if disconnected != nil {
                // Cut again while resending: the runs not sent yet wait behind what was cut.
                stranded += runs[(index + 1)...].flatMap { $0 }
                return
            }
        }
    }

    /// No more attempts: what is stranded waits in the outbox for `outbox flush`.
    private func giveUp(_ error: Failure) {
        disconnected = nil
        if failure == nil { failure = error }
        for message in stranded { release(message.clientMessageID) }
        undelivered += stranded.count
        stranded.removeAll()
    }
}
