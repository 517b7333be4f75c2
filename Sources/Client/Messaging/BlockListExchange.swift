import Diagnostics
import XMPPTransport

/// The requests that read and change the block list, in the order QuickBlox's SDKs make them:
/// the names (which list is the default), the list, then a change stored, made this session's
/// active list and the user's default. `ask` sends one request and waits for its answer.
package enum BlockListExchange {
    package typealias Ask = (PrivacyQuery.Request) throws(Failure) -> PrivacyAnswer

    /// What to change.
    package enum Change: Sendable, Equatable {
        case block, unblock
    }

    /// The block list as the server has it now.
    package static func read(_ ask: Ask) throws(Failure) -> BlockList {
        let (lists, defaultName): ([String], String?)
        switch try ask(.names) {
        case .names(_, let names, _, let found): (lists, defaultName) = (names, found)
        case let other: throw unexpected(other, doing: "read the names of your privacy lists")
        }
        let name = BlockList.listName(among: lists, default: defaultName)
        guard lists.contains(name) else { return BlockList(name: name, list: nil, isDefault: false) }
        switch try ask(.list(name)) {
        case .list(_, let list): return BlockList(name: name, list: list, isDefault: defaultName == name)
        case .refused(_, "item-not-found"): return BlockList(name: name, list: nil, isDefault: false)
        case let other: throw unexpected(other, doing: "read privacy list '\(name)'")
        }
    }

    /// Reads the list, makes `change` to the user of `jid` (refused, nothing sent, when it changes nothing: a user
    /// blocked already, one not blocked) and stores it. A list that still has rules is made
    /// active and default, as the SDKs' `setAsDefault` does; one left without rules is declined
    /// and removed (XEP-0016 keeps no empty list). `label` names them in errors.
    package static func apply(_ change: Change, to jid: ChatJID, label: String, _ ask: Ask) throws(Failure) -> BlockList {
        var current = try read(ask)
        let blocked = jid.userID.map(current.blockedUserIDs.contains) ?? false
        let updated: PrivacyList
        switch change {
        case .block:
            guard !blocked else {
                throw Failure(.invalidInput, "\(label) is blocked already", hint: "'chatctl blocked' lists whom you block")
            }
            updated = current.blocking(jid)
        case .unblock:
            guard blocked else {
                throw Failure(.invalidInput, "\(label) is not blocked", hint: "'chatctl blocked' lists whom you block")
            }
            updated = current.unblocking(jid)
        }
        if updated.rules.isEmpty {
            if current.isDefault { try expectDone(ask(.default(nil)), doing: "decline your default privacy list") }
            try expectDone(ask(.active(nil)), doing: "decline your active privacy list")
            try expectDone(ask(.delete(current.name)), doing: "remove privacy list '\(current.name)'")
            current.list = nil
            current.isDefault = false
            return current
        }
        try expectDone(ask(.store(updated)), doing: "store privacy list '\(current.name)'")
        if !current.isDefault { try expectDone(ask(.default(current.name)), doing: "make privacy list '\(current.name)' your default") }
        try expectDone(ask(.active(current.name)), doing: "make privacy list '\(current.name)' active")
        current.list = updated
        current.isDefault = true
        return current
    }

    private static func expectDone(_ answer: PrivacyAnswer, doing what: String) throws(Failure) {
        guard case .done = answer else { throw unexpected(answer, doing: what) }
    }

    private static func unexpected(_ answer: PrivacyAnswer, doing what: String) -> Failure {
        if case .refused(_, let condition) = answer {
            return Failure(condition == "conflict" ? .temporary : .failure, "the chat server refused to \(what): \(condition)",
                           hint: condition == "conflict" ? "another session of yours applies the list; try again from it or once it ends" : nil)
        }
        return Failure(.failure, "the chat server answered something else when asked to \(what)")
    }

    /// Runs `body` over a brief connection of `link`: connected here, disconnected after; each
    /// request waits at most `timeout` seconds for its answer. `hearing` gets every other event.
    package static func run<T>(over link: any ChatLinking, timeout: Double, hearing: @escaping (ChatEvent) -> Void = { _ in },
                               _ body: (@escaping Ask) throws(Failure) -> T) throws(Failure) -> T {
        var answers: [String: PrivacyAnswer] = [:]
        link.onEvent = { event in
            if case .privacy(let answer) = event, let id = answer.requestID { answers[id] = answer } else { hearing(event) }
        }
        defer {
            link.onEvent = nil
            link.disconnect()
        }
        try link.connect()
        return try body { request throws(Failure) in
            let id: String
            do throws(XMPPError) { id = try link.sendPrivacy(request) } catch { throw Failure(describing: error) }
            link.pump(timeout: timeout, sliceMilliseconds: 20) { answers[id] != nil || !link.isConnected }
            guard let answer = answers.removeValue(forKey: id) else { throw noAnswer(timeout: timeout, connected: link.isConnected) }
            return answer
        }
    }

    /// No answer in time, or the connection lost meanwhile.
    static func noAnswer(timeout: Double, connected: Bool) -> Failure {
        connected
            ? Failure(.temporary, "the chat server did not answer a privacy list request within \(Int(timeout)) s")
            : Failure(.temporary, "the chat connection was lost before the privacy list was answered")
    }
}

extension PrivacyAnswer {
    /// The id of the request this answers; nil for a push.
    package var requestID: String? {
        switch self {
        case .names(let id, _, _, _), .list(let id, _), .done(let id), .refused(let id, _): id
        case .changed: nil
        }
    }
}
