#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
import QuickBloxAPI

/// The sandbox's config line (what `chatctl-sandbox` prints), as far as the driver needs it.
package struct SandboxEndpoints: Sendable {
    package var credentials: AppCredentials
    package var api: String
    package var chatHost: String
    package var chatPort: Int
    package var chatDomain: String
    package var caFile: String

    /// Reads the config file at `path`.
    package init(configFile path: String) throws(LoadError) {
        let json: JSONValue
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            json = try JSONValue(parsing: Array(data))
        } catch {
            throw LoadError("cannot read the sandbox's config \(path): \(error)")
        }
        guard let appId = json["appId"]?.intValue, let authKey = json["authKey"]?.stringValue,
              let authSecret = json["authSecret"]?.stringValue, let api = json["endpoints"]?["api"]?.stringValue,
              let chat = json["endpoints"]?["chat"]?.stringValue, let caFile = json["caFile"]?.stringValue else {
            throw LoadError("\(path) is not a sandbox config line with chat (appId, authKey, authSecret, endpoints, caFile)")
        }
        // xmpp://HOST:PORT
        guard chat.hasPrefix("xmpp://"), let colon = chat.lastIndex(of: ":"),
              let port = Int(chat[chat.index(after: colon)...]) else {
            throw LoadError("the chat endpoint \(chat) is not xmpp://HOST:PORT")
        }
        credentials = AppCredentials(applicationId: appId, authKey: authKey, authSecret: authSecret)
        self.api = api
        chatHost = String(chat[chat.index(chat.startIndex, offsetBy: 7)..<colon])
        chatPort = port
        chatDomain = json["chatDomain"]?.stringValue ?? "localhost"
        self.caFile = caFile
    }
}

/// One user the run made: its id, session token (its chat secret, as chatctl's) and the
/// private dialog it writes to.
package struct LoadUser: Sendable {
    package var index: Int
    package var id: Int
    package var token: String
    package var privateDialogId: String?
}

/// Makes the run's users, sessions and dialogs over REST, as any client would: one
/// application session signs everyone up, each user opens a session of their own, user i
/// opens the private dialog with user i+1 (a ring: every user is in two pairs), and user 0
/// creates the group of everyone.
package struct SandboxAccounts {
    package let endpoints: SandboxEndpoints
    /// A prefix that keeps this run's logins apart from others on the same sandbox.
    package let tag: String
    package let password = "load-password-1"

    package init(endpoints: SandboxEndpoints, tag: String) {
        self.endpoints = endpoints
        self.tag = tag
    }

    private func client() throws(LoadError) -> QuickBloxClient {
        let transport: CurlHTTPClient
        do { transport = try CurlHTTPClient(options: HTTPClientOptions(userAgent: "chatctl-bench-load")) } catch {
            throw LoadError("libcurl: \(error)")
        }
        let client = QuickBloxClient(apiEndpoint: endpoints.api, credentials: endpoints.credentials, transport: transport)
        client.retryPolicy = RetryPolicy(maxAttempts: 5, baseDelay: 0.05)
        return client
    }

    /// `count` users; with `ring`, each one's private dialog with the next; with `group`, the group's id.
    package func make(count: Int, ring: Bool, group: Bool) throws(LoadError) -> (users: [LoadUser], groupId: String?) {
        let api = try client()
        do {
            try api.createSession()
            var ids: [Int] = []
            for i in 0..<count {
                ids.append(try api.signUp(login: "\(tag)-\(i)", password: password, fullName: nil, email: nil).id)
            }
            var users: [LoadUser] = []
            for i in 0..<count {
                let session = try api.createSession(user: UserCredentials(identity: .login("\(tag)-\(i)"), password: password))
                users.append(LoadUser(index: i, id: ids[i], token: session.token))
            }
            if ring && count > 1 {
                for i in 0..<count {
                    api.token = users[i].token
                    users[i].privateDialogId = try api.createDialog(type: .private, occupantIDs: [ids[(i + 1) % count]]).id.rawValue
                }
            }
            var groupId: String?
            if group {
                api.token = users[0].token
                groupId = try api.createDialog(type: .group, name: "\(tag) group", occupantIDs: Array(ids.dropFirst())).id.rawValue
            }
            return (users, groupId)
        } catch {
            throw LoadError("setting up users over REST: \(error)")
        }
    }
}
