import Messaging
import QuickBloxAPI
import XMPPTransport

/// How contacts are written (docs/cli-output.md): their state in words for a person, their
/// JSON for a script (the raw RFC 6121 values), and what `listen` says of contact requests.
/// Names from other users are sanitized for a terminal here; JSON keeps them as they are.
package enum ContactText {
    /// `both`, `they see you`, `you see them`, `requested` (the user's request waits),
    /// `asks you` (theirs waits), joined by `, ` when several hold; `none` when nothing does.
    package static func state(_ contact: Contact) -> String {
        var words: [String] = []
        switch contact.subscription {
        case .both: words.append("both")
        case .from: words.append("they see you")
        case .to: words.append("you see them")
        case .none, .remove: break
        }
        if contact.isRequested { words.append("requested") }
        if contact.asksYou { words.append("asks you") }
        return words.isEmpty ? "none" : words.joined(separator: ", ")
    }

    /// `{"id","login","full_name"}` of a user; null for what is not known.
    package static func user(id: Int, login: String?, fullName: String?) -> JSONValue {
        .object(["id": .int(id), "login": login.map(JSONValue.string) ?? .null, "full_name": fullName.map(JSONValue.string) ?? .null])
    }

    /// A contact as `chatctl contacts --json` prints it: the user's id, login and full name,
    /// `subscription` (`none`, `to`, `from`, `both`), `ask` (`"subscribe"` while the user's
    /// request waits, else null), `pending` (their request waits for the user's answer), and
    /// `presence` and `last_seen` as `chatctl users --json` has them.
    package static func json(_ contact: Contact, login: String?, fullName: String?, presence: PeerPresence?) -> JSONValue {
        guard case .object(var members) = user(id: contact.userID, login: login, fullName: fullName) else { return .null }
        members["subscription"] = .string(contact.subscription == .remove ? "none" : contact.subscription.rawValue)
        members["ask"] = contact.isRequested ? .string("subscribe") : .null
        members["pending"] = .bool(contact.asksYou)
        (members["presence"], members["last_seen"]) = presenceFields(presence)
        return .object(members)
    }

    /// `presence` (`"online"`, `"offline"`, or null: not told) and `last_seen` (Unix seconds, or
    /// null), as `chatctl users --json` and `chatctl contacts --json` both write them.
    package static func presenceFields(_ presence: PeerPresence?) -> (presence: JSONValue, lastSeen: JSONValue) {
        switch presence {
        case .online?: return (.string("online"), .null)
        case .lastSeen(let at)?: return (.string("offline"), .int(at))
        case .offline?: return (.string("offline"), .null)
        case nil: return (.null, .null)
        }
    }

    /// `listen --json`'s event for news of the contact list, e.g.
    /// `{"event":"contact_request","user":{"full_name":"Alice","id":7,"login":"alice"}}`;
    /// nil for an answer the user gave (listen gives none).
    package static func listenJSON(_ news: ContactBook.News, user: JSONValue) -> String? {
        guard let name = eventName(news) else { return nil }
        return JSONOutput.line(.object(["event": .string(name), "user": user]))
    }

    static func eventName(_ news: ContactBook.News) -> String? {
        switch news {
        case .requested: return "contact_request"
        case .accepted: return "contact_accepted"
        case .rejected: return "contact_rejected"
        case .withdrawn: return "contact_withdrawn"
        case .answered: return nil
        }
    }

    /// `listen`'s line for it (for stderr, without `chatctl: `); `name` is who, `login` how
    /// to name them on the command line.
    package static func line(_ news: ContactBook.News, name: String, login: String?) -> String {
        let who = TerminalText.sanitize(name, newlines: .asSpaces)
        let named = login.map { "@" + TerminalText.sanitize($0, newlines: .asSpaces) } ?? who
        switch news {
        case .requested: return "\(who) asks to be your contact (chatctl contacts accept \(named), or reject)"
        case .accepted: return "\(who) accepted your contact request"
        case .rejected: return "\(who) refused your contact request, or took you out of their contacts"
        case .withdrawn: return "\(who) withdrew their contact request, or took you out of their contacts"
        case .answered(let accepted): return "you \(accepted ? "accepted" : "refused") \(who)'s contact request"
        }
    }
}
