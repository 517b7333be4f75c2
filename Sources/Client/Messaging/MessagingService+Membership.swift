import Diagnostics
import MessageCache

/// Who is in a group: the rules the client keeps before it asks the server (docs/protocol.md §5),
/// for `dialogs add` and `dialogs remove`. A private dialog's occupants never change; someone
/// already in a group is not added again; only members are removed, and removing yourself is
/// leaving (`leaveDialog`). Whether you may add or remove others is the server's to say.
extension MessagingService {
    /// The dialog `reference` names, as the server has it now.
    package func currentDialog(_ reference: DialogReference) throws(Failure) -> CachedDialog {
        try refreshDialog(try resolve(reference, source: .server, createPrivate: false))
    }

    /// A group named by `reference`, as the server has it now; a private dialog is bad
    /// input (its occupants never change), `hint` says what to do instead.
    package func currentGroup(_ reference: DialogReference, hint: String) throws(Failure) -> CachedDialog {
        let dialog = try currentDialog(reference)
        guard dialog.type != .private else {
            throw Failure(.invalidInput, "a private dialog's occupants cannot change", hint: hint)
        }
        return dialog
    }

    /// The users with these logins, each looked up once, in order.
    package func users(logins: [String]) throws(Failure) -> [CachedUser] {
        try logins.map { login throws(Failure) in try user(login: login, source: .server) }
    }

    /// The group `reference` names and who of `logins` joins it: those already in it are
    /// named in `alreadyIn` and skipped.
    package func planAddition(of logins: [String], to reference: DialogReference) throws(Failure) -> MembershipChange {
        let group = try currentGroup(reference, hint: "create a group with 'chatctl dialogs create --group NAME --with …'")
        let users = try users(logins: logins)
        return MembershipChange(group: group, users: users.filter { !group.occupantIDs.contains($0.id) },
                                alreadyIn: users.filter { group.occupantIDs.contains($0.id) }, me: me)
    }

    /// The group `reference` names and who of `logins` leaves it. Someone not in it is bad
    /// input; a change that `includesYou` is refused by `remove` (that is leaving).
    package func planRemoval(of logins: [String], from reference: DialogReference) throws(Failure) -> MembershipChange {
        let group = try currentGroup(reference, hint: "to stop seeing it, use 'chatctl dialogs delete'")
        let change = MembershipChange(group: group, users: try users(logins: logins), alreadyIn: [], me: me)
        if change.includesYou { return change }
        if let stranger = change.users.first(where: { !group.occupantIDs.contains($0.id) }) {
            throw Failure(.invalidInput, "@\(stranger.login) is not in \(Self.label(group))", hint: "'chatctl dialogs show' lists who is")
        }
        return change
    }

    /// Adds the change's users to its group. Returns the group as the server has it now and
    /// the ids of those of them it holds (whom to announce).
    package func add(_ change: MembershipChange) throws(Failure) -> (group: CachedDialog, added: [Int]) {
        let updated = try addOccupants(change.users.map(\.id), to: change.group)
        return (updated, change.users.map(\.id).filter(updated.occupantIDs.contains))
    }

    /// Removes the change's users from its group; returns the group as the server has it now.
    package func remove(_ change: MembershipChange) throws(Failure) -> CachedDialog {
        if change.includesYou { throw Failure(.invalidInput, "to remove yourself, use 'chatctl dialogs leave'") }
        return try removeOccupants(change.users.map(\.id), from: change.group)
    }
}

/// A change of a group's members, checked against the group as the server had it.
package struct MembershipChange {
    /// The group before the change.
    package let group: CachedDialog
    /// Who joins or leaves, in the order named.
    package let users: [CachedUser]
    /// Named to join but already in the group: skipped.
    package let alreadyIn: [CachedUser]
    /// The user themselves is among `users`.
    package let includesYou: Bool

    init(group: CachedDialog, users: [CachedUser], alreadyIn: [CachedUser], me: Int) {
        self.group = group; self.users = users; self.alreadyIn = alreadyIn
        includesYou = users.contains { $0.id == me }
    }
}
