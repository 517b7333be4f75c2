#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import QuickBloxAPI
import XMPPTransport

/// The chatctl config file: application credentials and endpoints.
package struct ClientConfig: Sendable, Equatable {
    /// How chat authenticates: the session token (current SDKs) or the user's password.
    package enum ChatAuth: String, Sendable, Equatable { case token, password }

    package var path: String
    package var credentials: AppCredentials
    package var apiEndpoint: String
    package var chatEndpoint: ChatEndpoint
    package var chatDomain: String
    package var caFile: String?
    package var chatAuth: ChatAuth
    /// Allows credentials over plain HTTP/XMPP to a host other than loopback.
    package var allowInsecureTransport: Bool
    /// Seconds one REST request may take in all (connecting: at most 10 of them).
    package var requestTimeout: Double = 30
    /// Seconds a chat connect may take, TCP to bound resource.
    package var chatConnectTimeout: Double = 15

    package init(path: String, credentials: AppCredentials, apiEndpoint: String, chatEndpoint: ChatEndpoint,
                chatDomain: String, caFile: String? = nil, chatAuth: ChatAuth = .token, allowInsecureTransport: Bool = false) {
        self.path = path; self.credentials = credentials; self.apiEndpoint = apiEndpoint; self.chatEndpoint = chatEndpoint
        self.chatDomain = chatDomain; self.caFile = caFile; self.chatAuth = chatAuth; self.allowInsecureTransport = allowInsecureTransport
    }

    /// `--config`, then `CHATCTL_CONFIG`, then `$XDG_CONFIG_HOME/chatctl/config.json`
    /// (`~/.config/chatctl/config.json` when XDG_CONFIG_HOME is unset).
    /// With a profile, its own file comes before `CHATCTL_CONFIG`.
    package static func resolvePath(explicit: String?, profile: Profile? = nil, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let profile { return profile.configPath(environment: environment) }
        if let env = environment["CHATCTL_CONFIG"], !env.isEmpty { return env }
        return configDirectory(environment: environment) + "/config.json"
    }

    /// `$XDG_CONFIG_HOME/chatctl`, or `~/.config/chatctl`.
    package static func configDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/chatctl" }
        return (environment["HOME"] ?? "") + "/.config/chatctl"
    }

    /// A config that names its endpoints (one that leaves them to its `accountKey`
    /// goes through `ConfigFile`, which looks them up).
    package static func load(path: String) throws(Failure) -> ClientConfig {
        try ConfigFile.read(path).config()
    }

    /// `lookedUp`: the endpoints `GET /account_settings.json` named, for a config
    /// without `endpoints` (docs/protocol.md §1).
    static func parse(_ root: JSONValue, path: String, lookedUp: LookedUpEndpoints? = nil) throws(Failure) -> ClientConfig {
        guard case .object(let object) = root else {
            throw Failure(.invalidInput, "config file \(path): the top level must be a JSON object")
        }
        func bad(_ key: String, _ what: String) -> Failure {
            Failure(.invalidInput, "config file \(path): key \"\(key)\" \(what)")
        }
        func string(_ key: String, in dict: [String: JSONValue], prefix: String = "", required: Bool = true) throws(Failure) -> String? {
            switch dict[key] {
            case .string(let s) where !s.isEmpty: return s
            case nil, .null?: if required { throw bad(prefix + key, "is missing") } else { return nil }
            default: throw bad(prefix + key, "must be a non-empty string")
            }
        }
        let appId: Int
        switch object["appId"] {
        case .int(let n)? where n > 0: appId = n
        case .string(let s)? where Int(s).map({ $0 > 0 }) == true: appId = Int(s)!
        case nil, .null?: throw bad("appId", "is missing")
        default: throw bad("appId", "must be a positive integer")
        }
        let authKey = try string("authKey", in: object)!
        let authSecret = try string("authSecret", in: object)!
        let accountKey = try string("accountKey", in: object, required: false)
        let endpoints: [String: JSONValue]
        switch object["endpoints"] {
        case .object(let given)?: endpoints = given
        case nil where lookedUp != nil: endpoints = ["api": .string(lookedUp!.api), "chat": .string(lookedUp!.chat)]
        case nil: throw bad("endpoints", "is missing")
        default: throw bad("endpoints", "must be an object with \"api\" and \"chat\"")
        }
        var api = try string("api", in: endpoints, prefix: "endpoints.")!
        while api.hasSuffix("/") { api.removeLast() }
        guard let apiURL = EndpointURL(api), apiURL.scheme == "https" || apiURL.scheme == "http" else {
            throw bad("endpoints.api", "must be an http:// or https:// URL, like https://api.quickblox.com")
        }
        let chatText = try string("chat", in: endpoints, prefix: "endpoints.")!
        guard let chat = ChatEndpoint(parsing: chatText) else {
            throw bad("endpoints.chat", "must be xmpps://host:port (direct TLS) or xmpp://host:port (STARTTLS)")
        }
        let chatDomain = try string("chatDomain", in: object, required: false) ?? chat.host
        var caFile = try string("caFile", in: object, required: false)
        if let ca = caFile, !ca.hasPrefix("/") {
            // Relative to the config file, so a config and its CA travel together.
            let dir = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            caFile = (dir.isEmpty ? "." : dir) + "/" + ca
        }
        let algorithm: SignatureAlgorithm
        switch try string("signature", in: object, required: false) {
        case nil: algorithm = .hmacSHA1
        case let s?: guard let a = SignatureAlgorithm(rawValue: s) else { throw bad("signature", "must be \"sha1\" or \"sha256\"") }; algorithm = a
        }
        let chatAuth: ChatAuth
        switch try string("chatAuth", in: object, required: false) {
        case nil: chatAuth = .token
        case let s?: guard let a = ChatAuth(rawValue: s) else { throw bad("chatAuth", "must be \"token\" or \"password\"") }; chatAuth = a
        }
        let insecure: Bool
        switch object["allowInsecureTransport"] {
        case nil, .null?: insecure = false
        case .bool(let b)?: insecure = b
        default: throw bad("allowInsecureTransport", "must be true or false")
        }
        if apiURL.scheme == "http" && !apiURL.isLoopback && !insecure {
            throw Failure(.invalidInput, 
                "config file \(path): endpoints.api \(api) is plain HTTP to a host other than loopback",
                hint: "use https://, or set \"allowInsecureTransport\": true to send credentials unencrypted")
        }
        return ClientConfig(path: path,
                            credentials: AppCredentials(applicationId: appId, authKey: authKey, authSecret: authSecret,
                                                        accountKey: accountKey, signatureAlgorithm: algorithm),
                            apiEndpoint: api, chatEndpoint: chat, chatDomain: chatDomain, caFile: caFile,
                            chatAuth: chatAuth, allowInsecureTransport: insecure)
    }

    /// Plaintext XMPP is acceptable on loopback or when the config allows it.
    package var allowsPlaintextChat: Bool { allowInsecureTransport || chatEndpoint.isLoopback }

    /// Identifies the backend+application a session belongs to, so that two
    /// configs never share a session (file names in the state directory).
    /// A name, not a secret: 64-bit FNV-1a is plenty, and it spares every
    /// command the ~2 ms OpenSSL 3 spends initialising its providers.
    package var sessionKey: String {
        Self.fileKey("\(credentials.applicationId)\n\(credentials.authKey)\n\(apiEndpoint)\n\(chatEndpoint)\n\(chatDomain)")
    }

    /// 64-bit FNV-1a of `identity` as 16 hex digits: a name for a file in the state directory.
    static func fileKey(_ identity: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// How chat connects as this config says (CA, the plaintext rule, `chatConnectTimeout`):
    /// the same for `chatctl login` and every messaging command.
    package func chatConnectOptions(verboseLog: (@Sendable (String) -> Void)? = nil) -> ChatConnectOptions {
        ChatConnectOptions(caFile: caFile, allowPlaintext: allowsPlaintextChat, timeout: chatConnectTimeout, verboseLog: verboseLog)
    }

    /// `{userId}-{appId}@{chatDomain}`
    package func chatJID(userId: Int) -> String { "\(userId)-\(credentials.applicationId)@\(chatDomain)" }
}
