#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics

/// The edge of the engine's core (ChatEngineCore.swift): each event goes in, each effect
/// it asks for is performed here, and what came of it goes back in as the next event.
extension ChatEngine {
    /// Feeds `event` to the core and performs its effects in order; the effects of what one
    /// brings back come before the rest. A loop, not recursion: a reconnect loop may go on
    /// for days. Throws what ends the command or the run.
    func drive(_ event: ChatEngineCore.Event) throws(Failure) {
        var pending = core.handle(event)
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            if let next = try perform(effect) { pending.insert(contentsOf: core.handle(next), at: 0) }
        }
    }

    /// Feeds an event whose effects cannot fail: bookkeeping, read marks, the followed dialog.
    func feed(_ event: ChatEngineCore.Event) {
        do { try drive(event) } catch { preconditionFailure("the engine's \(event) cannot fail, yet failed: \(error)") }
    }

    private func perform(_ effect: ChatEngineCore.Effect) throws(Failure) -> ChatEngineCore.Event? {
        switch effect {
        case .tell(let event):
            emit(event)
        case .connect:
            do { try connectOnce() } catch { return .connectFailed(error, at: .now, lastAck: outbox.lastProgress) }
            return .connectSucceeded(at: .now, unixTime: Int(Date().timeIntervalSince1970))
        case .wait(let seconds):
            pause(seconds: seconds)
            return .waitEnded
        case .renewSession:
            let renewal = renewSession()
            return .sessionRenewed(renewal, at: .now, lastAck: outbox.lastProgress)
        case .keepSessionAlive:
            try keepSessionAlive()
        case .fail(let failure):
            throw failure
        case .cutOff(let failure):
            outbox.connectionLost(failure)
        case .giveUp(let failure):
            outbox.giveUp(failure)
        case .reportOutbox:
            reportOutbox()
        case .startSessionUpkeep:
            startSessionUpkeep()
        case .resendStranded:
            guard !outbox.stranded.isEmpty || outbox.disconnected != nil else { break }
            do { try link.joinRooms(of: outbox.dialogsStranded) } catch { outbox.giveUp(error) }
            outbox.resendStranded()
        case .fillGaps:
            fillGaps()
        case .flushOutbox:
            flushOutbox()
        case .catchUp(let dialogID):
            catchUp(dialogID)
        case .refreshPresence:
            refreshPresence()
        case .askPresence(let dialogID):
            askPresence(following: dialogID)
        case .refreshUnreadCounts:
            _ = try? service.refreshUnreadCounts()
        case .reportDialogs:
            reportDialogs()
        case .refreshNames:
            if refreshNames() { reportDialogs() }
        case .queueMarker(let kind, let message):
            markers.queue(kind, for: message)
        case .markRead(let reads):
            var failed: [(ChatEngineCore.PendingRead, Failure)] = []
            for read in reads {
                do { try service.markRead(read.messages, dialogID: read.dialogID) } catch { failed.append((read, error)) }
            }
            return .readMarksSent(failed: failed, at: .now)
        }
        return nil
    }
}
