// The reference's bulk occupant changes (docs/protocol.md §5): `POST /chat/Dialogs/add_occupants.json`
// and `remove_occupants.json`, several users in several dialogs at once, by the rules of one
// dialog's `push_all`/`pull_all`.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// `users_ids` join each of `dialogs_ids` the caller may add people to (any occupant of a
    /// group, the owner of a public group; never a private dialog).
    func addOccupants(_ context: UserContext) throws(RESTError) -> RESTResponse {
        try changeOccupants(context, adding: true)
    }

    /// `users_ids` leave each of `dialogs_ids` where the caller may remove them all (the owner
    /// removes anyone; anyone else only themselves).
    func removeOccupants(_ context: UserContext) throws(RESTError) -> RESTResponse {
        try changeOccupants(context, adding: false)
    }

    /// 200 with `{"users":{…},"dialogs":{…}}`, each holding `SuccessfullyDeleted`,
    /// `WrongPermissions` and `NotFound` as the reference names them (for additions too).
    private func changeOccupants(_ context: UserContext, adding: Bool) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let users = try integerList(r, "users_ids")
        let dialogIds = r.list("dialogs_ids") ?? []
        var problems: [(String, JSONNode)] = []
        if users.isEmpty { problems.append(("users_ids", .array([.string("can't be blank")]))) }
        if dialogIds.isEmpty { problems.append(("dialogs_ids", .array([.string("can't be blank")]))) }
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        let known = try storage { try chat.existingUsers(users) }
        let found = users.filter(known.contains)
        var changed: [String] = [], refused: [String] = [], missing: [String] = []
        for id in dialogIds {
            guard let dialog = try storage({ try chat.dialog(id: id, viewer: me) }) else { missing.append(id); continue }
            let isOwner = dialog.ownerId == me
            let allowed = switch (dialog.type, adding) {
            case (.privateChat, _): false
            case (.publicGroup, true): isOwner
            case (.group, true): dialog.occupantIds.contains(me)
            case (_, false): (dialog.occupantIds.contains(me) || dialog.type == .publicGroup) && (isOwner || found == [me])
            }
            guard allowed else { refused.append(id); continue }
            if !found.isEmpty {
                try storage { try chat.updateDialog(id: dialog.id, name: nil, photo: nil, push: adding ? found : [], pull: adding ? [] : found) }
                let removed = adding ? [] : found.filter(dialog.occupantIds.contains)
                if !removed.isEmpty { occupantsRemoved?(dialog.id, removed, me) }
            }
            changed.append(id)
        }
        let userResults: (done: [Int], refused: [Int]) = changed.isEmpty ? ([], found) : (found, [])
        func lists<T>(_ done: [T], _ refused: [T], _ missing: [T], _ node: (T) -> JSONNode) -> JSONNode {
            .object([
                ("SuccessfullyDeleted", .array(done.map(node))),
                ("WrongPermissions", .array(refused.map(node))),
                ("NotFound", .array(missing.map(node))),
            ])
        }
        return .json(200, .object([
            ("users", lists(userResults.done, userResults.refused, users.filter { !known.contains($0) }) { .int($0) }),
            ("dialogs", lists(changed, refused, missing) { .string($0) }),
        ]))
    }
}
