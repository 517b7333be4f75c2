import Diagnostics
import XMPPTransport

/// Whom the user blocks, over the engine's own connection (docs/protocol.md §7, "Privacy
/// lists"): read before a private message goes (`send`), changed by the chat view's `/block`
/// and `/unblock`, and read again when another session changes the list (its push).
extension ChatEngine {
    /// A request waits at most this long for its answer.
    static let privacySeconds = 10.0

    /// A privacy list answer, or push, as the connection heard it.
    func heard(_ answer: PrivacyAnswer) {
        if let id = answer.requestID {
            privacyAnswers[id] = answer
        } else if settings.tracksBlocking {
            blockListStale = true
        }
    }

    /// Sends one request and runs the connection until its answer (at most `privacySeconds`);
    /// what else arrives meanwhile is handled as always.
    func ask(_ request: PrivacyQuery.Request) throws(Failure) -> PrivacyAnswer {
        guard link.isConnected else { throw Failure(.temporary, "not connected to chat") }
        let id: String
        do throws(XMPPError) { id = try link.sendPrivacy(request) } catch { throw Failure(describing: error) }
        link.pump(timeout: Self.privacySeconds, sliceMilliseconds: 10) { [unowned self] in
            privacyAnswers[id] != nil || !link.isConnected
        }
        guard let answer = privacyAnswers.removeValue(forKey: id) else {
            throw BlockListExchange.noAnswer(timeout: Self.privacySeconds, connected: link.isConnected)
        }
        return answer
    }

    /// The block list as the server has it now (connected).
    package func readBlockList() throws(Failure) -> BlockList {
        let list = try BlockListExchange.read { request throws(Failure) in try ask(request) }
        service.rememberBlocked(list.blockedUserIDs)
        return list
    }

    /// `/block` and `/unblock`: the change made and told (`.blocked`), or why not (a notice).
    func changeBlock(_ change: BlockListExchange.Change, user: Int) {
        let label = service.displayNames([user])[user] ?? "user \(user)"
        do {
            let list = try BlockListExchange.apply(change, to: link.userJID(user), label: label) { request throws(Failure) in
                try ask(request)
            }
            service.rememberBlocked(list.blockedUserIDs)
            emit(.blocked(Set(list.blockedUserIDs)))
        } catch {
            emit(.notice(.failed(.changeBlockList, error)))
        }
    }

    /// Reads the list again when a connect or another session's change made it stale; a
    /// failure is told and tried again at the next change.
    func refreshBlockListIfStale() {
        guard blockListStale, link.isConnected else { return }
        blockListStale = false
        do {
            emit(.blocked(Set(try readBlockList().blockedUserIDs)))
        } catch {
            emit(.notice(.failed(.readBlockList, error)))
        }
    }
}
