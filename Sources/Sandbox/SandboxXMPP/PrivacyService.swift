// Privacy lists (XEP-0016, docs/protocol.md §7 "Privacy lists"), as QuickBlox's SDKs block
// users: the lists a user keeps, the one each session applies (its active list, else the
// user's default), and the checks routing, rooms, presence and the roster ask of them.
import SandboxStorage
import SandboxXML

/// Answers `jabber:iq:privacy` and judges stanzas by the lists. Owned by the router; loop
/// thread only. Only this service writes the lists, so it keeps each user's once read.
final class PrivacyService {
    private let chat: ChatDomain
    private let sessions: BoundSessions
    private let records: StanzaStorage
    /// What the lists write goes into the turn's transaction.
    private let turn: TurnCommit
    /// The list each session made active, by connection number.
    private var active: [Int: String] = [:]
    /// Each user's lists and default, as stored, once read.
    private var kept: [Int: UserLists] = [:]
    private var pushes = 0

    /// What a request gets: a result's payload, or an error.
    private enum Answer {
        case success(String)
        case failure(StanzaError)
    }

    private enum Parsed {
        case success([PrivacyItem])
        case failure(StanzaError)
    }

    private struct UserLists {
        var defaultName: String?
        var lists: [String: [PrivacyItem]]
        var names: [String]
    }

    /// A message the sender's own list stops (ejabberd's answer, which QuickBlox's is).
    static let deniedBySender = StanzaError(condition: .notAcceptable, type: .modify,
                                            text: "Your active privacy list has denied the routing of this stanza.")

    init(chat: ChatDomain, sessions: BoundSessions, records: StanzaStorage, turn: TurnCommit) {
        self.chat = chat
        self.sessions = sessions
        self.records = records
        self.turn = turn
    }

    /// A session ended: its active list with it.
    func sessionEnded(_ connection: XMPPClientConnection) { active[connection.number] = nil }

    // MARK: checks

    /// Why `stanza` (a message from `connection` of `sender` to `recipient`) may not pass, if
    /// it may not: the sender's list stops it (`not-acceptable`), or every list the recipient
    /// applies (each session's, or the default while none is online) does (`service-unavailable`,
    /// XEP-0016 §2.13). Nil: it passes.
    func refusal(of kind: PrivacyStanzaKind, from connection: XMPPClientConnection, sender: Int, to recipient: Int) -> StanzaError? {
        if kind == .message, let rules = rules(of: connection, userId: sender),
           !rules.allows(.other, party(of: sender, chat.userJID(recipient), userId: recipient, rules)) {
            return Self.deniedBySender
        }
        let from = connection.session.fullJID ?? chat.userJID(sender)
        let judges = recipientRules(recipient)
        guard !judges.isEmpty else { return nil }
        let admitted = judges.contains { rules in rules.map { $0.allows(kind, party(of: recipient, from, userId: sender, $0)) } ?? true }
        return admitted ? nil : StanzaError(condition: .serviceUnavailable)
    }

    /// Whether a subscription request or answer from `sender` to `recipient` passes both their lists.
    func admitsSubscription(from connection: XMPPClientConnection, sender: Int, to recipient: Int) -> Bool {
        if let rules = rules(of: connection, userId: sender),
           !rules.allows(.other, party(of: sender, chat.userJID(recipient), userId: recipient, rules)) { return false }
        let judges = recipientRules(recipient)
        return judges.isEmpty || judges.contains { rules in
            rules.map { $0.allows(.other, party(of: recipient, chat.userJID(sender), userId: sender, $0)) } ?? true
        }
    }

    /// Whether `userId`'s `resource` may show its presence to `connection` (its own list's
    /// `presence-out`, the receiver's `presence-in`).
    func admitsPresence(from userId: Int, resource: String, to connection: XMPPClientConnection) -> Bool {
        guard let receiver = connection.session.userId else { return true }
        if let source = sessions[userId]?[resource], let rules = rules(of: source, userId: userId),
           !rules.allows(.presenceOut, party(of: userId, connection.session.fullJID ?? chat.userJID(receiver), userId: receiver, rules)) {
            return false
        }
        guard let rules = rules(of: connection, userId: receiver) else { return true }
        return rules.allows(.presenceIn, party(of: receiver, "\(chat.userJID(userId))/\(resource)", userId: userId, rules))
    }

    /// Whether a room occupant's message (from `room@muc.{domain}/{nick}`) reaches `connection`:
    /// QuickBlox blocks a user in groups by a rule on `muc.{domain}/{their id}`.
    func admitsRoomMessage(from occupant: String, to connection: XMPPClientConnection) -> Bool {
        guard let receiver = connection.session.userId, let rules = rules(of: connection, userId: receiver),
              let address = XMPPAddress(occupant) else { return true }
        return rules.allows(.message, PrivacyRules.Party(address: address))
    }

    /// The rules `connection` applies: its active list, else its user's default; nil: none.
    private func rules(of connection: XMPPClientConnection, userId: Int) -> PrivacyRules? {
        guard let lists = lists(of: userId) else { return nil }
        guard let name = active[connection.number] ?? lists.defaultName, let items = lists.lists[name] else { return nil }
        return PrivacyRules(items)
    }

    /// The rules of each online session of `userId` (nil for one that applies none), or the
    /// default alone while none is online; empty when the user has no lists at all.
    private func recipientRules(_ userId: Int) -> [PrivacyRules?] {
        guard let lists = lists(of: userId), !lists.names.isEmpty else { return [] }
        guard let online = sessions[userId], !online.isEmpty else {
            return [lists.defaultName.flatMap { lists.lists[$0] }.map(PrivacyRules.init)]
        }
        return online.values.map { rules(of: $0, userId: userId) }
    }

    /// The other party of `owner`'s stanza: `jid`, and (only when a rule asks) its roster item.
    private func party(of owner: Int, _ jid: String, userId other: Int, _ rules: PrivacyRules) -> PrivacyRules.Party {
        var party = PrivacyRules.Party(address: XMPPAddress(jid) ?? XMPPAddress(chat.userJID(other))!)
        if rules.items.contains(where: { $0.type == "group" || $0.type == "subscription" }),
           let item = records.find({ try $0.rosterItem(of: owner, contact: other) }), item.listed {
            party.subscription = item.subscription
            party.groups = item.groups
        }
        return party
    }

    private func lists(of userId: Int) -> UserLists? {
        if let lists = kept[userId] { return lists }
        guard let store = records.store else { return nil }
        do {
            let names = try store.privacyListNames(of: userId)
            var lists: [String: [PrivacyItem]] = [:]
            for name in names { lists[name] = try store.privacyList(of: userId, named: name) ?? [] }
            let found = UserLists(defaultName: try store.defaultPrivacyList(of: userId), lists: lists, names: names)
            kept[userId] = found
            return found
        } catch {
            records.noteStorageFailure(error)
            return nil
        }
    }

    // MARK: jabber:iq:privacy

    /// A get or set of `jabber:iq:privacy` to the user's own account.
    func handle(_ iq: XMPPElement, type: IQType, from connection: XMPPClientConnection, sender: Int) {
        guard let query = iq.elements.first, let lists = lists(of: sender) else {
            return connection.send(IQAnswer.error(iq, to: connection, records.notStoredError))
        }
        let children = query.elements
        let answer: Answer
        switch (type, children.count) {
        case (.get, 0): answer = .success(names(lists, connection))
        case (.get, 1) where children[0].name == "list": answer = list(children[0], lists)
        case (.set, 1) where children[0].name == "active": answer = setActive(children[0], lists, connection)
        case (.set, 1) where children[0].name == "default": answer = setDefault(children[0], lists, connection, sender)
        case (.set, 1) where children[0].name == "list": answer = edit(children[0], lists, connection, sender)
        default: answer = .failure(StanzaError(condition: .badRequest, type: .modify))
        }
        switch answer {
        case .success(let payload): connection.send(IQAnswer.result(iq, to: connection, payload: payload))
        case .failure(let error): connection.send(IQAnswer.error(iq, to: connection, error))
        }
    }

    private func query(_ content: String) -> String { "<query xmlns='\(XMPPNamespace.privacy)'>\(content)</query>" }

    private static func nameAttribute(_ name: String) -> String { " name='\(XMLEscaping.attribute(name))'" }

    private func names(_ lists: UserLists, _ connection: XMPPClientConnection) -> String {
        var content = active[connection.number].map { "<active\(Self.nameAttribute($0))/>" } ?? ""
        content += lists.defaultName.map { "<default\(Self.nameAttribute($0))/>" } ?? ""
        content += lists.names.map { "<list\(Self.nameAttribute($0))/>" }.joined()
        return query(content)
    }

    private func list(_ element: XMPPElement, _ lists: UserLists) -> Answer {
        guard let name = element[attribute: "name"], let items = lists.lists[name] else {
            return .failure(StanzaError(condition: .itemNotFound))
        }
        let rendered = PrivacyRules(items).items.map { item in
            var text = "<item"
            if let type = item.type { text += " type='\(XMLEscaping.attribute(type))'" }
            if let value = item.value { text += " value='\(XMLEscaping.attribute(value))'" }
            text += " action='\(item.allows ? "allow" : "deny")' order='\(item.order)'"
            return item.kinds.isEmpty ? text + "/>" : text + ">" + item.kinds.map { "<\($0)/>" }.joined() + "</item>"
        }
        return .success(query("<list\(Self.nameAttribute(name))>\(rendered.joined())</list>"))
    }

    /// `<active name='…'/>` applies a list to this session; `<active/>` declines it (the default applies again).
    private func setActive(_ element: XMPPElement, _ lists: UserLists, _ connection: XMPPClientConnection) -> Answer {
        guard let name = element[attribute: "name"] else {
            active[connection.number] = nil
            return .success("")
        }
        guard lists.lists[name] != nil else { return .failure(StanzaError(condition: .itemNotFound)) }
        active[connection.number] = name
        return .success("")
    }

    /// The other sessions of `userId` that apply the default list (they set no active one).
    private func othersOnDefault(_ userId: Int, except connection: XMPPClientConnection) -> Bool {
        (sessions[userId]?.values ?? [:].values).contains { $0 !== connection && active[$0.number] == nil }
    }

    /// `<default name='…'/>` makes a list the default; `<default/>` declines one. Changing the
    /// default another session applies is a `conflict` (XEP-0016 §2.4).
    private func setDefault(_ element: XMPPElement, _ lists: UserLists, _ connection: XMPPClientConnection, _ userId: Int) -> Answer {
        let name = element[attribute: "name"]
        if let name, lists.lists[name] == nil { return .failure(StanzaError(condition: .itemNotFound)) }
        guard name != lists.defaultName else { return .success("") }
        if lists.defaultName != nil && othersOnDefault(userId, except: connection) { return .failure(StanzaError(condition: .conflict)) }
        turn.beginWriting()
        guard records.storage({ try $0.setDefaultPrivacyList(name, of: userId) }) != nil else { return .failure(records.notStoredError) }
        kept[userId]?.defaultName = name
        return .success("")
    }

    /// `<list name='…'>` with items makes or replaces a list; without, removes it, unless it is
    /// the default or another session's active list (`conflict`, XEP-0016 §2.8).
    private func edit(_ element: XMPPElement, _ lists: UserLists, _ connection: XMPPClientConnection, _ userId: Int) -> Answer {
        guard let name = element[attribute: "name"], !name.isEmpty else { return .failure(StanzaError(condition: .badRequest, type: .modify)) }
        let itemElements = element.elements
        if itemElements.isEmpty {
            guard lists.lists[name] != nil else { return .failure(StanzaError(condition: .itemNotFound)) }
            let activeElsewhere = active.contains { number, list in list == name && number != connection.number && isLive(number, userId) }
            if lists.defaultName == name || activeElsewhere { return .failure(StanzaError(condition: .conflict)) }
            turn.beginWriting()
            guard records.storage({ try $0.deletePrivacyList(named: name, of: userId) }) != nil else { return .failure(records.notStoredError) }
            kept[userId]?.lists[name] = nil
            kept[userId]?.names.removeAll { $0 == name }
            if active[connection.number] == name { active[connection.number] = nil }
        } else {
            let items: [PrivacyItem]
            switch parse(itemElements, owner: userId) {
            case .success(let parsed): items = parsed
            case .failure(let error): return .failure(error)
            }
            turn.beginWriting()
            guard records.storage({ try $0.savePrivacyList(items, named: name, of: userId) }) != nil else { return .failure(records.notStoredError) }
            if kept[userId]?.lists[name] == nil { kept[userId]?.names.append(name) }
            kept[userId]?.lists[name] = items
        }
        push(name, to: userId)
        return .success("")
    }

    /// Whether connection `number` is still one of `userId`'s bound sessions.
    private func isLive(_ number: Int, _ userId: Int) -> Bool {
        sessions[userId]?.values.contains { $0.number == number } ?? false
    }

    /// XEP-0016 §2.6: every session of the user hears that the list changed (by name only).
    private func push(_ name: String, to userId: Int) {
        for connection in sessions[userId]?.values.map({ $0 }) ?? [] {
            guard let jid = connection.session.fullJID else { continue }
            pushes += 1
            connection.send("<iq type='set' id='privacy-push-\(pushes)' to='\(XMLEscaping.attribute(jid))'>"
                            + query("<list\(Self.nameAttribute(name))/>") + "</iq>")
        }
    }

    /// A list's items as the client wrote them: each with an action and an order of its own; a
    /// `jid`, `group` or `subscription` type with a value; a JID of this service names a user
    /// (a room occupant's nick is one too); a group is one of the user's roster's.
    private func parse(_ elements: [XMPPElement], owner: Int) -> Parsed {
        let bad = StanzaError(condition: .badRequest, type: .modify)
        var items: [PrivacyItem] = []
        var orders = Set<Int>()
        for element in elements {
            guard element.name == "item", let action = element[attribute: "action"], action == "allow" || action == "deny",
                  let order = element[attribute: "order"].flatMap({ Int($0) }), order >= 0, orders.insert(order).inserted else {
                return .failure(bad)
            }
            let kinds = element.elements.map(\.name)
            guard kinds.allSatisfy({ PrivacyStanzaKind(rawValue: $0) != nil && $0 != "other" }) else { return .failure(bad) }
            let type = element[attribute: "type"], value = element[attribute: "value"]
            switch type {
            case nil:
                guard value == nil else { return .failure(bad) }
            case "jid":
                guard let value, let address = XMPPAddress(value) else { return .failure(StanzaError(condition: .jidMalformed, type: .modify)) }
                if let nobody = namesNobody(address) { return .failure(nobody) }
            case "group":
                guard let value else { return .failure(bad) }
                let groups = records.find { try $0.rosterItems(of: owner).flatMap(\.groups) } ?? []
                guard groups.contains(value) else { return .failure(StanzaError(condition: .itemNotFound, text: "No roster group \(value)")) }
            case "subscription":
                guard let value, RosterSubscription(rawValue: value) != nil else { return .failure(bad) }
            default:
                return .failure(bad)
            }
            items.append(PrivacyItem(type: type, value: value, allows: action == "allow", order: order, kinds: kinds))
        }
        return .success(items)
    }

    /// `item-not-found` for a JID of this chat that is nobody: a user's address whose id is no
    /// user, or an occupant nick of the room service that is not a user id.
    private func namesNobody(_ address: XMPPAddress) -> StanzaError? {
        let notFound = StanzaError(condition: .itemNotFound, text: "No such user")
        if address.domain == chat.name, address.local != nil {
            guard let id = address.userId(applicationId: chat.applicationId, domain: chat.name),
                  records.store == nil || (records.storage { try $0.userExists(id) } ?? false) else { return notFound }
        } else if address.domain == chat.mucService, address.local == nil, let nick = address.resource {
            guard let id = Int(nick), id > 0, records.store == nil || (records.storage { try $0.userExists(id) } ?? false) else { return notFound }
        }
        return nil
    }
}

@available(*, unavailable) extension PrivacyService: Sendable {}
