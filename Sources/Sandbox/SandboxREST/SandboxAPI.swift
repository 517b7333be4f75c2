// The REST endpoints of docs/protocol.md §2–6, §8 and §13–15 (sessions, users, dialogs, messages, blobs, custom
// objects, push notifications, address books), as route-table rows.
import SandboxClock
import SandboxHTTP
import SandboxJSON
import SandboxLogging
import SandboxStorage

/// Application credentials the sandbox accepts.
package struct ApplicationCredentials {
    var applicationId: Int
    var authKey: String
    var authSecret: String
    /// What `GET /account_settings.json` expects in `QB-Account-Key`.
    var accountKey = "sandbox-account-key"

    package init(applicationId: Int, authKey: String, authSecret: String, accountKey: String = "sandbox-account-key") {
        self.applicationId = applicationId
        self.authKey = authKey
        self.authSecret = authSecret
        self.accountKey = accountKey
    }
}

/// Session, user, dialog and message endpoints over a `SandboxDatabase`. Lives on the event-loop thread.
package final class SandboxAPI {
    /// How far a signed timestamp may be from the server clock.
    static let clockWindow: Double = 3600

    let database: SandboxDatabase
    let credentials: ApplicationCredentials
    package let chat: ChatStore
    package let blobs: BlobStore
    package let objects: CustomObjectStore
    package let push: PushStore
    /// Where uploads and downloads go, known once the storage endpoint listens.
    package var blobStorage: StorageEndpointAccess?
    /// Hands a message stored with `send_to_chat=1` to the chat side, when chat is enabled.
    package var liveDelivery: ((MessageRecord, DialogRecord) -> Void)?
    /// Tells the chat side that `users` left dialog `dialogId` because `actor` removed them (or
    /// themselves), so the room can show them out (docs/protocol.md §7 "Group dialogs").
    package var occupantsRemoved: ((_ dialogId: String, _ users: [Int], _ actor: Int) -> Void)?
    /// What `GET /account_settings.json` answers: the sandbox's own endpoints, known once it listens.
    package var accountEndpoints = AccountEndpoints(api: "", chat: nil, chatDomain: "")
    /// Where a line for the log goes (a password reset asked for, an account removed, a push delivered).
    package var notice: (String) -> Void = { _ in }
    /// Told when an event's schedule may have changed (created, changed, deleted), so that
    /// whoever runs `deliverDueEvents` looks again at when the next is due.
    package var pushScheduleChanged: () -> Void = {}
    let now: () -> Double

    package init(database: SandboxDatabase, credentials: ApplicationCredentials, chatDomain: String = "localhost",
         now: @escaping () -> Double = SandboxTime.now) {
        self.database = database
        self.credentials = credentials
        self.now = now
        chat = ChatStore(database: database, applicationId: credentials.applicationId, chatDomain: chatDomain, now: now)
        blobs = BlobStore(database: database, now: now)
        objects = CustomObjectStore(database: database, now: now)
        push = PushStore(database: database, now: now)
    }

    /// The route table.
    package func makeRouter() -> RESTRouter {
        let db = database
        var router = RESTRouter(resolveSession: { [unowned self] token in try self.storage { try db.useSession(token: token) } })
        router.add(.open(.get, "/account_settings.json") { [unowned self] (c) throws(RESTError) in try self.accountSettings(c) })
        router.add(.open(.post, "/session.json") { [unowned self] (c) throws(RESTError) in try self.createSession(c) })
        // Bare, as the reference has it and QuickBlox's JS SDK hands it to the app (`QB.getSession`);
        // creating one answers `{"session":{…}}` (docs/protocol.md §2).
        router.add(.session(.get, "/session.json") { (c) throws(RESTError) in .json(200, c.session.json) })
        router.add(.session(.delete, "/session.json") { [unowned self] (c) throws(RESTError) in try self.deleteSession(c) })
        router.add(.session(.post, "/login.json") { [unowned self] (c) throws(RESTError) in try self.logIn(c) })
        router.add(.session(.delete, "/login.json") { [unowned self] (c) throws(RESTError) in try self.logOut(c) })
        router.add(.session(.post, "/users.json") { [unowned self] (c) throws(RESTError) in try self.signUp(c) })
        router.add(.session(.get, "/users.json") { [unowned self] (c) throws(RESTError) in try self.listUsers(c) })
        router.add(.session(.get, "/users/by_login.json") { [unowned self] (c) throws(RESTError) in try self.userByLogin(c) })
        router.add(.session(.get, "/users/by_email.json") { [unowned self] (c) throws(RESTError) in try self.userByEmail(c) })
        router.add(.session(.get, "/users/by_full_name.json") { [unowned self] (c) throws(RESTError) in try self.usersByFullName(c) })
        router.add(.session(.get, "/users/by_tags.json") { [unowned self] (c) throws(RESTError) in try self.usersByTags(c) })
        // Before `/users/{id}.json`, which would take `by_facebook_id` for an id.
        for kind in SocialIdKind.allCases {
            router.add(.session(.get, "/users/by_\(kind.rawValue).json", userBySocialId(kind)))
        }
        router.add(.session(.get, "/users/external/{id}.json") { [unowned self] (c) throws(RESTError) in try self.userByExternalId(c) })
        router.add(.user(.delete, "/users/external/{id}.json") { [unowned self] (c) throws(RESTError) in try self.deleteUserByExternalId(c) })
        router.add(.session(.get, "/password/reset.json") { [unowned self] (c) throws(RESTError) in try self.resetPassword(c) })
        router.add(.session(.get, "/users/{id}.json") { [unowned self] (c) throws(RESTError) in try self.userById(c) })
        router.add(.user(.put, "/users/{id}.json") { [unowned self] (c) throws(RESTError) in try self.updateUser(c) })
        router.add(.user(.delete, "/users/{id}.json") { [unowned self] (c) throws(RESTError) in try self.deleteUser(c) })
        router.add(.user(.get, "/chat/Dialog.json") { [unowned self] (c) throws(RESTError) in try self.listDialogs(c) })
        router.add(.user(.post, "/chat/Dialog.json") { [unowned self] (c) throws(RESTError) in try self.createDialog(c) })
        router.add(.user(.put, "/chat/Dialog/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.updateDialog(c) })
        router.add(.user(.delete, "/chat/Dialog/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.deleteDialogs(c) })
        router.add(.user(.get, "/chat/Message.json") { [unowned self] (c) throws(RESTError) in try self.listMessages(c) })
        router.add(.user(.post, "/chat/Message.json") { [unowned self] (c) throws(RESTError) in try self.sendMessage(c) })
        router.add(.user(.get, "/chat/Message/unread.json") { [unowned self] (c) throws(RESTError) in try self.unreadCounts(c) })
        router.add(.user(.put, "/chat/Message/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.updateMessages(c) })
        router.add(.user(.delete, "/chat/Message/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.deleteMessages(c) })
        router.add(.user(.post, "/blobs.json") { [unowned self] (c) throws(RESTError) in try self.createBlob(c) })
        router.add(.user(.put, "/blobs/{id}/complete.json") { [unowned self] (c) throws(RESTError) in try self.completeBlob(c) })
        router.add(.optionalSession(.get, "/blobs/{ref}.json") { [unowned self] (c) throws(RESTError) in try self.readBlob(c) })
        // What the JS SDK's QB.content.privateUrl(uid) builds: the same download, without `.json`.
        router.add(.optionalSession(.get, "/blobs/{ref}") { [unowned self] (c) throws(RESTError) in try self.readBlob(c) })
        router.add(.user(.delete, "/blobs/{id}.json") { [unowned self] (c) throws(RESTError) in try self.deleteBlob(c) })
        router.add(.user(.get, "/chat/Dialog/{id}/notifications.json") { [unowned self] (c) throws(RESTError) in try self.notificationSettings(c) })
        router.add(.user(.put, "/chat/Dialog/{id}/notifications.json") { [unowned self] (c) throws(RESTError) in try self.updateNotificationSettings(c) })
        // The rest of the reference's operations.
        router.add(.user(.post, "/chat/Dialogs/add_occupants.json") { [unowned self] (c) throws(RESTError) in try self.addOccupants(c) })
        router.add(.user(.post, "/chat/Dialogs/remove_occupants.json") { [unowned self] (c) throws(RESTError) in try self.removeOccupants(c) })
        router.add(.user(.put, "/chat/Message.json") { [unowned self] (c) throws(RESTError) in try self.updateAllMessages(c) })
        // The reference's `PUT /chat/Message/{message_id}.json` with no message id: the same.
        router.add(.user(.put, "/chat/Message/.json") { [unowned self] (c) throws(RESTError) in try self.updateAllMessages(c) })
        router.add(.user(.get, "/blobs.json") { [unowned self] (c) throws(RESTError) in try self.listBlobs(c) })
        router.add(.user(.put, "/blobs/{id}.json") { [unowned self] (c) throws(RESTError) in try self.updateBlob(c) })
        // The JavaScript SDK's spelling of the reset (`users/password/reset`).
        router.add(.session(.get, "/users/password/reset.json") { [unowned self] (c) throws(RESTError) in try self.resetPassword(c) })
        // Custom objects.
        for route in customObjectRoutes() { router.add(route) }
        // Push notifications and the address book; and what the sandbox pushed.
        router.add(.user(.post, "/subscriptions.json") { [unowned self] (c) throws(RESTError) in try self.subscribe(c) })
        router.add(.user(.get, "/subscriptions.json") { [unowned self] (c) throws(RESTError) in try self.listSubscriptions(c) })
        router.add(.user(.delete, "/subscriptions/{id}.json") { [unowned self] (c) throws(RESTError) in try self.unsubscribe(c) })
        router.add(.session(.post, "/events.json") { [unowned self] (c) throws(RESTError) in try self.createEvent(c) })
        router.add(.session(.get, "/events.json") { [unowned self] (c) throws(RESTError) in try self.listEvents(c) })
        router.add(.session(.get, "/events/{id}/status.json") { [unowned self] (c) throws(RESTError) in try self.eventStatus(c) })
        router.add(.session(.get, "/events/{id}.json") { [unowned self] (c) throws(RESTError) in try self.readEvent(c) })
        router.add(.session(.put, "/events/{id}.json") { [unowned self] (c) throws(RESTError) in try self.updateEvent(c) })
        router.add(.session(.delete, "/events/{id}.json") { [unowned self] (c) throws(RESTError) in try self.deleteEvent(c) })
        router.add(.user(.post, "/address_book.json") { [unowned self] (c) throws(RESTError) in try self.uploadAddressBook(c) })
        router.add(.user(.get, "/address_book.json") { [unowned self] (c) throws(RESTError) in try self.readAddressBook(c) })
        router.add(.user(.get, "/address_book/registered_users.json") { [unowned self] (c) throws(RESTError) in try self.registeredUsers(c) })
        router.add(.open(.get, "/sandbox/push_deliveries.json") { [unowned self] (c) throws(RESTError) in try self.pushDeliveries(c) })
        return router
    }

    /// Runs a storage call, turning an SQLite failure into a 500, or a 507 when the disk is full
    /// (SQLite has rolled the statement or its transaction back: nothing half-written).
    func storage<T>(_ body: () throws -> T) throws(RESTError) -> T {
        let space = database.space
        let changesBefore = space.isShort ? database.totalChanges : 0
        do {
            let result = try body()
            if space.isShort && database.totalChanges != changesBefore {
                space.isShort = false
                SpaceNotice.process.returned()
            }
            return result
        } catch {
            guard let reason = StorageSpace.shortage(in: error) else { throw .internalError }
            space.isShort = true
            SpaceNotice.process.short("the database", reason: reason)
            throw .insufficientStorage
        }
    }

    // MARK: sessions

    private func createSession(_ context: PublicContext) throws(RESTError) -> RESTResponse {
        let request = context.request
        guard let appText = request.parameter("application_id"), Int(appText) == credentials.applicationId,
              request.parameter("auth_key") == credentials.authKey else { throw .noApplication }
        guard let signature = request.parameter("signature"),
              let nonceText = request.parameter("nonce"), let nonce = Int(nonceText),
              let timestampText = request.parameter("timestamp"), let timestamp = Int(timestampText),
              RequestSignature.isValid(signature, parameters: request.parameters, secret: credentials.authSecret)
        else { throw .unexpectedSignature }
        guard abs(now() - Double(timestamp)) <= SandboxAPI.clockWindow else {
            throw .field(422, "base", "Unexpected timestamp")
        }
        guard try storage({ try database.recordNonce(nonceText, timestamp: timestamp, window: SandboxAPI.clockWindow) }) else {
            throw .field(422, "base", "Unexpected nonce")
        }
        var userId = 0
        if let password = request.parameter("user[password]") {
            userId = try authenticate(login: request.parameter("user[login]"), email: request.parameter("user[email]"),
                                      password: password, from: request.peerAddress).id
        }
        let session = try storage {
            try database.createSession(applicationId: credentials.applicationId, userId: userId, nonce: nonce,
                                       timestamp: timestamp)
        }
        var response = RESTResponse.json(201, .object([("session", session.json)]))
        response.headers.append(("QB-Token-ExpirationDate", SandboxTime.expirationHeader(session.expiresAt)))
        return response
    }

    private func deleteSession(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        try storage { try database.deleteSession(id: context.session.id) }
        var response = RESTResponse.empty(200)
        response.endsSession = true
        return response
    }

    /// The user with that login (or email) and password; 401 otherwise, 429 while too many
    /// wrong ones came for the user or from `address` (docs/protocol.md §4).
    private func authenticate(login: String?, email: String?, password: String, from address: String?) throws(RESTError) -> UserRecord {
        let found: UserRecord?
        if let login, !login.isEmpty {
            found = try storage { try database.user(login: login) }
        } else if let email, !email.isEmpty {
            found = try storage { try database.user(email: email) }
        } else {
            found = nil
        }
        guard let user = found else {
            if case .throttled(let seconds) = database.refuseUnknownLogin(from: address) { throw .tooManyAttempts(retryAfter: seconds) }
            throw .unauthorized
        }
        switch try storage({ try database.verifyPassword(userId: user.id, password, from: address) }) {
        case .accepted: return user
        case .refused: throw .unauthorized
        case .throttled(let seconds): throw .tooManyAttempts(retryAfter: seconds)
        }
    }

    private func logIn(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let user = try authenticate(login: r.parameter("login") ?? r.parameter("user[login]"),
                                    email: r.parameter("email") ?? r.parameter("user[email]"),
                                    password: r.parameter("password") ?? r.parameter("user[password]") ?? "", from: r.peerAddress)
        try storage { try database.setSessionUser(sessionId: context.session.id, userId: user.id) }
        let fresh = try storage { try database.user(id: user.id) } ?? user
        return .json(202, .object([("user", fresh.json)]))
    }

    private func logOut(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        try storage { try database.setSessionUser(sessionId: context.session.id, userId: 0) }
        return .empty(200)
    }

    // MARK: users

    /// Server-side password rule: at least 8 characters; ASCII letters, digits and punctuation only.
    static func passwordProblem(_ password: String) -> String? {
        if password.count < 8 { return "is too short (minimum is 8 characters)" }
        let allowed = password.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        return allowed ? nil : "should contain alphanumeric and punctuation characters only"
    }

    private func signUp(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        func field(_ name: String) -> String? {
            guard let v = r.parameter("user[\(name)]"), !v.isEmpty else { return nil }
            return v
        }
        var problems: [(String, JSONNode)] = []
        func problem(_ key: String, _ message: String) { problems.append((key, .array([.string(message)]))) }
        let login = field("login")
        let email = field("email")
        let password = r.parameter("user[password]") ?? ""
        // Taken checks come first and cost no password hashing.
        if let login {
            if try storage({ try database.isLoginTaken(login) }) { problem("login", "has already been taken") }
        } else if email == nil {
            // One of the two names the user; an email alone is enough (docs/protocol.md §3).
            problem("login", "can't be blank")
        }
        if let email, try storage({ try database.isEmailTaken(email) }) { problem("email", "has already been taken") }
        if let message = SandboxAPI.passwordProblem(password) { problem("password", message) }
        var externalId: Int?
        if let text = field("external_user_id") {
            guard let v = Int(text) else { throw .field(422, "external_user_id", "is not a number") }
            externalId = v
        }
        var blobId: Int?
        if let text = field("blob_id") {
            if let v = Int(text), v > 0 { blobId = v } else { problem("blob_id", "is not a number") }
        }
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        let new = NewUser(login: login, password: password,
                          profile: UserProfile(fullName: field("full_name"), email: email, phone: field("phone"), website: field("website"),
                                               externalUserId: externalId, customData: field("custom_data"), blobId: blobId,
                                               tags: Self.tagList(r) ?? [], facebookId: field("facebook_id"),
                                               twitterId: field("twitter_id"), twitterDigitsId: field("twitter_digits_id")))
        let user = try storage { try database.insertUser(new) }
        return .json(201, .object([("user", user.json)]))
    }

    private func userById(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let user = try storage({ try database.user(id: id) }) else { throw .notFound }
        return .json(200, .object([("user", user.json)]))
    }

    private func userByLogin(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        guard let login = context.request.parameter("login"),
              let user = try storage({ try database.user(login: login) }) else { throw .notFound }
        return .json(200, .object([("user", user.json)]))
    }

    private func userByEmail(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        guard let email = context.request.parameter("email"), !email.isEmpty,
              let user = try storage({ try database.user(email: email) }) else { throw .notFound }
        return .json(200, .object([("user", user.json)]))
    }

    /// Users whose full name contains `full_name` (at least 3 characters), ignoring
    /// ASCII case; paged like the list.
    private func usersByFullName(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let (page, perPage) = userPaging(r)
        let fullName = r.parameter("full_name") ?? ""
        guard fullName.count >= 3 else { throw .field(422, "full_name", "is too short (minimum is 3 characters)") }
        let (total, items) = try storage { try database.users(fullNameContaining: fullName, page: page, perPage: perPage) }
        return userPage(page: page, perPage: perPage, total: total, items: items)
    }

    /// `page` (≥ 1, default 1) and `per_page` (1–100, default 10).
    func userPaging(_ r: RESTRequest) -> (page: Int, perPage: Int) {
        (max(1, r.parameter("page").flatMap { Int($0) } ?? 1), min(100, max(1, r.parameter("per_page").flatMap { Int($0) } ?? 10)))
    }

    func userPage(page: Int, perPage: Int, total: Int, items: [UserRecord]) -> RESTResponse {
        .json(200, .object([
            ("current_page", .int(page)),
            ("per_page", .int(perPage)),
            ("total_entries", .int(total)),
            ("items", .array(items.map { .object([("user", $0.json)]) })),
        ]))
    }

}

@available(*, unavailable) extension SandboxAPI: Sendable {}
