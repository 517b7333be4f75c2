/// A named privacy list (XEP-0016): rules, first match by `order` deciding, that the server
/// applies to what reaches the user and what they send. QuickBlox blocks people with these
/// (docs/protocol.md §7, "Privacy lists").
package struct PrivacyList: Sendable, Equatable {
    package struct Rule: Sendable, Equatable {
        package enum Match: Sendable, Equatable {
            /// Everyone: a rule with no `type`.
            case everyone
            case jid(String)
            case group(String)
            case subscription(String)
        }

        /// What a rule stops or lets through; none means everything, sending included.
        package enum Kind: String, Sendable, CaseIterable {
            case message, iq
            case presenceIn = "presence-in"
            case presenceOut = "presence-out"
        }

        package var match: Match
        package var allows: Bool
        package var order: Int
        package var kinds: [Kind]

        package init(_ match: Match, allows: Bool, order: Int, kinds: [Kind]) {
            self.match = match; self.allows = allows; self.order = order; self.kinds = kinds
        }

        /// An `<item/>`; nil for one XEP-0016 would refuse (no action or order, an unknown
        /// type or kind, a type without a value).
        init?(_ element: StanzaElement) {
            guard element.name == "item", let order = element[attribute: "order"].flatMap({ Int($0) }), order >= 0 else { return nil }
            switch element[attribute: "action"] {
            case "allow": allows = true
            case "deny": allows = false
            default: return nil
            }
            let value = element[attribute: "value"]
            switch (element[attribute: "type"], value) {
            case (nil, _): match = .everyone
            case ("jid", let value?): match = .jid(value)
            case ("group", let value?): match = .group(value)
            case ("subscription", let value?): match = .subscription(value)
            default: return nil
            }
            var kinds: [Kind] = []
            for child in element.children {
                guard let kind = Kind(rawValue: child.name) else { return nil }
                kinds.append(kind)
            }
            self.order = order
            self.kinds = kinds
        }

        var element: StanzaElement {
            var attributes: [StanzaElement.Attribute] = []
            switch match {
            case .everyone: break
            case .jid(let value): attributes = [.init("type", "jid"), .init("value", value)]
            case .group(let value): attributes = [.init("type", "group"), .init("value", value)]
            case .subscription(let value): attributes = [.init("type", "subscription"), .init("value", value)]
            }
            attributes += [.init("action", allows ? "allow" : "deny"), .init("order", String(order))]
            return StanzaElement("item", attributes: attributes, children: kinds.map { StanzaElement($0.rawValue) })
        }
    }

    package var name: String
    /// By `order`, as the server applies them.
    package var rules: [Rule]

    package init(name: String, rules: [Rule]) {
        self.name = name
        self.rules = rules.sorted { $0.order < $1.order }
    }

    /// The list QuickBlox's SDKs write to block users, in their order: for each, a rule on
    /// the user's JID and one on their nick in every room (`muc.{domain}/{id}`), denying every
    /// kind; `mutual` names no kind, which also stops what the blocker sends to them.
    package static func blocking(_ userIDs: [Int], name: String, appID: Int, domain: String, mutual: Bool = false) -> PrivacyList {
        var rules: [Rule] = []
        for id in userIDs {
            rules += blockingRules(ChatJID.user(id, appID: appID, domain: domain), order: rules.count + 1, mutual: mutual)
        }
        return PrivacyList(name: name, rules: rules)
    }

    /// The two rules that block the user of `user` (a user JID) as the SDKs write them, numbered from `order`.
    package static func blockingRules(_ user: ChatJID, order: Int, mutual: Bool = false) -> [Rule] {
        let kinds: [Rule.Kind] = mutual ? [] : [.message, .presenceIn, .presenceOut, .iq]
        return [Rule(.jid(user.bare.description), allows: false, order: order, kinds: kinds),
                Rule(.jid(roomNick(of: user)), allows: false, order: order + 1, kinds: kinds)]
    }

    /// A user's nick in every room, as a privacy rule names it: `muc.{domain}/{user id}`.
    package static func roomNick(of user: ChatJID) -> String {
        "muc.\(user.domain)/\(user.userID.map(String.init) ?? "")"
    }

    /// The users a rule of this list denies by their user JID, in rule order, once each:
    /// whom the list blocks, however it was written (by chatctl or an SDK).
    package var blockedUserIDs: [Int] {
        var seen = Set<Int>()
        return rules.compactMap { rule -> Int? in
            guard !rule.allows, case .jid(let value) = rule.match, let id = ChatJID(parsing: value)?.userID,
                  seen.insert(id).inserted else { return nil }
            return id
        }
    }

    /// `<list name="…">` with its rules; without any, the request to delete the list.
    var element: StanzaElement {
        StanzaElement("list", attributes: [.init("name", name)], children: rules.map(\.element))
    }

    /// A `<list/>` as the server sends it; nil when it has no name or a rule is malformed.
    init?(_ element: StanzaElement) {
        guard element.name == "list", let name = element[attribute: "name"], !name.isEmpty else { return nil }
        var rules: [Rule] = []
        for child in element.children where child.name == "item" {
            guard let rule = Rule(child) else { return nil }
            rules.append(rule)
        }
        self.init(name: name, rules: rules)
    }
}

/// The privacy list requests of XEP-0016 §2 and their answers.
package enum PrivacyQuery {
    static let namespace = "jabber:iq:privacy"
    /// Our requests' ids start so, to tell their answers from other IQs.
    static let idPrefix = "privacy"

    /// What a request asks for.
    package enum Request: Sendable, Equatable {
        /// The names of the lists, and which is active and default.
        case names
        case list(String)
        /// Makes or replaces a list.
        case store(PrivacyList)
        case delete(String)
        /// Nil declines: no active (default) list.
        case active(String?)
        case `default`(String?)
    }

    /// The request, its id `privacy{names|list|set}-{id}`: an answer is read by what was
    /// asked, since a list of names and a list of rules can look alike.
    static func stanza(_ request: Request, id: String) -> StanzaElement {
        let type: String, children: [StanzaElement]
        switch request {
        case .names:
            (type, children) = ("get", [])
        case .list(let name):
            (type, children) = ("get", [StanzaElement("list", attributes: [.init("name", name)])])
        case .store(let list):
            (type, children) = ("set", [list.element])
        case .delete(let name):
            (type, children) = ("set", [StanzaElement("list", attributes: [.init("name", name)])])
        case .active(let name):
            (type, children) = ("set", [StanzaElement("active", attributes: name.map { [.init("name", $0)] } ?? [])])
        case .default(let name):
            (type, children) = ("set", [StanzaElement("default", attributes: name.map { [.init("name", $0)] } ?? [])])
        }
        return StanzaElement("iq", attributes: [.init("type", type), .init("id", idPrefix + request.asks.rawValue + "-" + id)],
                             children: [StanzaElement("query", namespace: namespace, children: children)])
    }

    /// What kind of answer a request gets.
    enum Asks: String, CaseIterable {
        case names, list, set
    }
}

extension PrivacyQuery.Request {
    var asks: PrivacyQuery.Asks {
        switch self {
        case .names: .names
        case .list: .list
        case .store, .delete, .active, .default: .set
        }
    }
}

/// What the server says about privacy lists: an answer to a request of ours, or a push that
/// a list changed (which XEP-0016 §2.6 asks the client to acknowledge).
package enum PrivacyAnswer: Sendable, Equatable {
    /// The lists by name, with the active and default ones.
    case names(id: String, lists: [String], active: String?, default: String?)
    case list(id: String, PrivacyList)
    /// A set of ours succeeded.
    case done(id: String)
    case refused(id: String, condition: String)
    /// Another session of the user changed or deleted this list.
    case changed(String)

    /// Reads an `<iq>`; nil for anything that is not about privacy lists, and for a push
    /// that does not come from the server on the user's behalf.
    package init?(_ stanza: StanzaElement, ownJID: ChatJID?) {
        guard stanza.name == "iq", let type = stanza[attribute: "type"] else { return nil }
        let query = stanza.child("query", namespace: PrivacyQuery.namespace)
        if type == "set" {
            guard let query, query.children.count == 1, let name = query.child("list")?[attribute: "name"] else { return nil }
            if let from = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:)) {
                guard let ownJID, from.bare == ownJID.bare else { return nil }
            }
            self = .changed(name)
            return
        }
        let id = stanza[attribute: "id"] ?? ""
        guard id.hasPrefix(PrivacyQuery.idPrefix) else { return nil }
        let tagged = id.dropFirst(PrivacyQuery.idPrefix.count)
        guard let dash = tagged.firstIndex(of: "-"), let asked = PrivacyQuery.Asks(rawValue: String(tagged[..<dash])) else { return nil }
        let ours = String(tagged[tagged.index(after: dash)...])
        switch (type, asked) {
        case ("result", .names):
            let lists = query?.children.filter { $0.name == "list" } ?? []
            self = .names(id: ours, lists: lists.compactMap { $0[attribute: "name"] },
                          active: query?.child("active")?[attribute: "name"], default: query?.child("default")?[attribute: "name"])
        case ("result", .list):
            guard let list = query?.child("list").flatMap(PrivacyList.init) else {
                self = .refused(id: ours, condition: "bad-request")
                return
            }
            self = .list(id: ours, list)
        case ("result", .set):
            self = .done(id: ours)
        case ("error", _):
            self = .refused(id: ours, condition: ChatMessageError.details(of: stanza)?.condition ?? "undefined-condition")
        default:
            return nil
        }
    }
}
