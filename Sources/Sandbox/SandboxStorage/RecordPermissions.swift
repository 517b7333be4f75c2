// Who may read, update and delete a custom object record (docs/protocol.md §13): each
// action open, its owner's, some users' or some user tags' ("groups").
import SandboxJSON

/// One action's access level.
package enum RecordAccess: String, CaseIterable {
    case open
    case owner
    case openForUsers = "open_for_users_ids"
    case openForGroups = "open_for_groups"
}

/// What a record allows for one action.
package struct ActionPermission: Equatable {
    package var access: RecordAccess
    /// For `openForUsers`.
    package var userIds: [Int] = []
    /// For `openForGroups`: user tags.
    package var groups: [String] = []

    package init(access: RecordAccess, userIds: [Int] = [], groups: [String] = []) {
        self.access = access
        self.userIds = access == .openForUsers ? userIds : []
        self.groups = access == .openForGroups ? groups : []
    }

    /// Whether `userId` (with `tags`) may take the action on a record of `ownerId`. The owner
    /// always may, as the SDKs' documentation says; nobody without a user (0) but where it is open.
    package func admits(_ userId: Int, tags: [String], ownerId: Int) -> Bool {
        if userId != 0 && userId == ownerId { return true }
        switch access {
        case .open: return true
        case .owner: return false
        case .openForUsers: return userId != 0 && userIds.contains(userId)
        case .openForGroups: return userId != 0 && groups.contains(where: tags.contains)
        }
    }

    /// `{"access":"open_for_users_ids","users_ids":["3","12"]}`: the service's keys for a
    /// class's rules, which the reference's record example (`users_groups`) shares.
    var json: JSONNode {
        var members: [(String, JSONNode)] = [("access", .string(access.rawValue))]
        if access == .openForUsers { members.append(("users_ids", .array(userIds.map { .string(String($0)) }))) }
        if access == .openForGroups { members.append(("users_groups", .array(groups.map { .string($0) }))) }
        return .object(members)
    }

    init?(json: JSONNode?) {
        guard case .string(let text)? = json?["access"], let access = RecordAccess(rawValue: text) else { return nil }
        var ids: [Int] = [], groups: [String] = []
        if case .array(let items)? = json?["users_ids"] { ids = items.compactMap { if case .string(let s) = $0 { Int(s) } else { nil } } }
        if case .array(let items)? = json?["users_groups"] { groups = items.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        self.init(access: access, userIds: ids, groups: groups)
    }
}

/// A record's three rules.
package struct RecordPermissions: Equatable {
    package enum Action: String, CaseIterable {
        case read, update, delete
    }

    package var read: ActionPermission
    package var update: ActionPermission
    package var delete: ActionPermission

    /// The service's default for a new record: anyone reads, the owner changes and deletes.
    package static let standard = RecordPermissions(read: ActionPermission(access: .open), update: ActionPermission(access: .owner),
                                                    delete: ActionPermission(access: .owner))

    package init(read: ActionPermission, update: ActionPermission, delete: ActionPermission) {
        self.read = read
        self.update = update
        self.delete = delete
    }

    package subscript(action: Action) -> ActionPermission {
        get {
            switch action {
            case .read: read
            case .update: update
            case .delete: delete
            }
        }
        set {
            switch action {
            case .read: read = newValue
            case .update: update = newValue
            case .delete: delete = newValue
            }
        }
    }

    package var json: JSONNode { .object(Action.allCases.map { ($0.rawValue, self[$0].json) }) }

    /// As the database keeps them: the answer's own JSON.
    var stored: String { json.serialized }

    static func parse(stored text: String) -> RecordPermissions {
        guard let node = try? JSONParser.parse(Array(text.utf8)) else { return .standard }
        var permissions = RecordPermissions.standard
        for action in Action.allCases {
            if let rule = ActionPermission(json: node[action.rawValue]) { permissions[action] = rule }
        }
        return permissions
    }
}

extension RecordPermissions {
    /// These rules with the ones `node` gives changed: `{"read":{"access":"open_for_users_ids",
    /// "ids":"3,12"}}` as the documentation writes them (form or JSON; `ids` and `groups` as
    /// text `a,b` or arrays), or with the answer's own keys `users_ids` and `users_groups`, so
    /// that a record sent back as it was read changes nothing. A rule not given stays.
    package func changed(by node: JSONNode) throws(FieldProblem) -> RecordPermissions {
        guard case .object(let members) = node else { throw FieldProblem("permissions", "must name read, update or delete") }
        var result = self
        for (name, rule) in members {
            guard let action = Action(rawValue: name) else {
                throw FieldProblem("permissions", "\(name) is not an action a record has (read, update, delete)")
            }
            let field = "permissions[\(name)]"
            guard case .string(let accessText)? = rule["access"] else { throw FieldProblem(field, "needs an access") }
            guard let access = RecordAccess(rawValue: accessText) else {
                throw FieldProblem(field, "access must be open, owner, open_for_users_ids or open_for_groups, not \(accessText)")
            }
            let idTexts = Self.list(rule["ids"] ?? rule["users_ids"])
            var ids: [Int] = []
            for text in idTexts {
                guard let id = Int(text), id > 0 else { throw FieldProblem(field, "ids holds something that is no user id: \(text)") }
                if !ids.contains(id) { ids.append(id) }
            }
            var groups: [String] = []
            for group in Self.list(rule["groups"] ?? rule["users_groups"]) where !groups.contains(group) { groups.append(group) }
            if access == .openForUsers && ids.isEmpty { throw FieldProblem(field, "open_for_users_ids needs ids") }
            if access == .openForGroups && groups.isEmpty { throw FieldProblem(field, "open_for_groups needs groups") }
            result[action] = ActionPermission(access: access, userIds: ids, groups: groups)
        }
        return result
    }

    /// Text items of `a,b`, of an array, or of one number.
    private static func list(_ node: JSONNode?) -> [String] {
        switch node {
        case .string(let text)?: return text.split(separator: ",").map { String($0).trimmingCharacters(" ") }.filter { !$0.isEmpty }
        case .number(let text)?: return [text]
        case .array(let items)?: return items.flatMap { list($0) }
        default: return []
        }
    }
}
