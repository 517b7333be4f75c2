import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport
import ChatIdentifiers

/// What a cut connection leaves a sender with, when the engine will make it again
/// (docs/protocol.md §7): what was not acknowledged stays claimed, in order; once
/// connected again the server's history is asked which of it arrived (as `outbox
/// flush` does), and the rest goes again under the same ids.
extension OutboxSender {
    /// A message waiting for a reconnect.
    struct Stranded {
        let clientMessageID: String
        let dialog: CachedDialog
        let text: String
        let attachments: [QBAttachment]
        let queuedAt: Int
    }

    /// The connection is gone: what is in flight waits for a reconnect when the engine
    /// will make one (`reconnects`), else goes back to the outbox.
    func connectionLost(_ error: Failure) {
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

    /// The dialogs of the stranded messages, each once, in order (their rooms are joined first).
    var dialogsStranded: [CachedDialog] {
        var seen: Set<DialogID> = []
        return stranded.compactMap { seen.insert($0.dialog.id).inserted ? $0.dialog : nil }
    }

    /// Connected again: each run of one dialog's stranded messages is checked against the
    /// server's history (those it has are recorded as delivered), the rest sent again under
    /// their ids. A history that cannot be read gives up (a resend without it could store a
    /// message twice on a server that does not recognise the id).
    func resendStranded() {
        disconnected = nil
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
                    // Stored already: its custom parameters are not needed again.
                    customByID[message.clientMessageID] = nil
                    if (try? service.cache.markDelivered(clientMessageID: message.clientMessageID, serverMessage: found)) != nil {
                        noteDelivered(found)
                    } else {
                        release(message.clientMessageID)
                        noteUndelivered(1)
                    }
                } else {
                    again.append((message.clientMessageID, message.text, message.attachments))
                }
            }
            do { try resend(again, to: dialog) } catch {
                // No address for the dialog: these wait in the outbox.
                for message in again { release(message.clientMessageID) }
                noteUndelivered(again.count)
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
    func giveUp(_ error: Failure) {
        disconnected = nil
        if failure == nil { failure = error }
        for message in stranded { release(message.clientMessageID) }
        noteUndelivered(stranded.count)
        stranded.removeAll()
    }
}
