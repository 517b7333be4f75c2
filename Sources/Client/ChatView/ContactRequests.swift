/// Contact requests in the chat view: each one waiting shows as a notice under the
/// conversation (after any other notice or question), naming the requester, until the user
/// answers it with `/accept` or `/reject` (a name after them picks one of several), or the
/// requester withdraws it.
extension ScreenModel {
    /// `alice asks to be your contact: /accept or /reject`; nil when nobody asks.
    package var contactRequestNotice: String? {
        guard let first = contactRequests.first else { return nil }
        let name = names[first] ?? "user \(first)"
        let others = contactRequests.count - 1
        if others == 0 { return "\(name) asks to be your contact: /accept or /reject" }
        return "\(name) and \(others) other\(others == 1 ? "" : "s") ask to be your contacts: /accept or /reject (a name after them picks one)"
    }
}

extension ScreenUpdate.Step {
    mutating func contactRequest(_ user: Int, waiting: Bool) {
        model.contactRequests.removeAll { $0 == user }
        if waiting { model.contactRequests.append(user) }
    }

    /// `/accept [NAME]`, `/reject [NAME]`: the oldest request, or the one whose requester's
    /// name starts with NAME (case aside, an `@` before it ignored).
    mutating func answerContact(_ argument: String, accept: Bool) {
        let verb = accept ? "/accept" : "/reject"
        guard !model.contactRequests.isEmpty else { return tell("\(verb): nobody asks to be your contact") }
        let wanted = (argument.hasPrefix("@") ? String(argument.dropFirst()) : argument).lowercased()
        let user = wanted.isEmpty ? model.contactRequests.first
            : model.contactRequests.first { (model.names[$0] ?? "user \($0)").lowercased().hasPrefix(wanted) }
        guard let user else { return tell("\(verb): nobody named \(argument) asks to be your contact") }
        let name = model.names[user] ?? "user \(user)"
        contactRequest(user, waiting: false)
        effects.append(.answerContact(userID: user, accept: accept))
        tell(accept ? "accepted \(name)'s contact request" : "refused \(name)'s contact request")
    }
}
