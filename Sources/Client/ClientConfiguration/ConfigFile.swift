#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import QuickBloxAPI
import XMPPTransport
internal import Glibc

/// A config file read but not yet made a `ClientConfig`: a config with an
/// `accountKey` and no `endpoints` needs them looked up first (docs/protocol.md §1),
/// which takes the network and the state directory, so it happens between the two steps.
package struct ConfigFile: Sendable {
    package let path: String
    let root: JSONValue

    package static func read(_ path: String) throws(Failure) -> ConfigFile {
        guard let bytes = contents(of: path) else {
            throw Failure(.invalidInput, "cannot read config file \(path)", hint: ExampleConfig.hint(configPath: path))
        }
        do { return ConfigFile(path: path, root: try JSONValue(parsing: bytes)) } catch {
            throw Failure(.invalidInput, "config file \(path) is not valid JSON", hint: "check its syntax")
        }
    }

    /// The file's bytes through open(2) and read(2), which every command pays for
    /// (Foundation's URL and Data cost it start-up time); nil when it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return Array(bytes[..<count]) }
            count += n
        }
    }

    /// Where to ask for the endpoints when the file leaves them to its `accountKey`; nil when it names them.
    package func endpointLookup() throws(Failure) -> EndpointLookup? {
        guard case .object(let object) = root, object["endpoints"] == nil,
              case .string(let accountKey)? = object["accountKey"], !accountKey.isEmpty else { return nil }
        var directory = EndpointLookup.hostedDirectory
        switch object["accountSettingsAPI"] {
        case nil, .null?: break
        case .string(let given)? where !given.isEmpty: directory = given
        default: throw Failure(.invalidInput, "config file \(path): key \"accountSettingsAPI\" must be a non-empty string")
        }
        while directory.hasSuffix("/") { directory.removeLast() }
        let insecure = object["allowInsecureTransport"] == .bool(true)
        guard let url = EndpointURL(directory), url.scheme == "https" || (url.scheme == "http" && (url.isLoopback || insecure)) else {
            throw Failure(.invalidInput, "config file \(path): key \"accountSettingsAPI\" must be an https:// URL (http:// only to loopback)",
                                     hint: "or set \"allowInsecureTransport\": true")
        }
        let applicationId = object["appId"]?.intValue ?? object["appId"]?.stringValue.flatMap { Int($0) } ?? 0
        return EndpointLookup(directory: directory, accountKey: accountKey, applicationId: applicationId,
                              caFile: try config(lookedUp: LookedUpEndpoints.placeholder).caFile)
    }

    /// The config, with the looked-up endpoints when the file names none.
    package func config(lookedUp: LookedUpEndpoints? = nil) throws(Failure) -> ClientConfig {
        try ClientConfig.parse(root, path: path, lookedUp: lookedUp)
    }
}

/// `GET {directory}/account_settings.json` with `QB-Account-Key`: the question a
/// config without endpoints asks once (docs/protocol.md §1).
package struct EndpointLookup: Sendable, Equatable {
    /// Where the hosted service answers for every account.
    package static let hostedDirectory = "https://api.quickblox.com"
    /// The base URL asked: `accountSettingsAPI`, else the hosted one.
    package var directory: String
    package var accountKey: String
    package var applicationId: Int
    /// The config's CA, for a directory with a private certificate.
    package var caFile: String?

    package init(directory: String, accountKey: String, applicationId: Int, caFile: String? = nil) {
        self.directory = directory; self.accountKey = accountKey; self.applicationId = applicationId; self.caFile = caFile
    }

    /// Names the answer's cache file: one per application, account key and directory.
    package var cacheKey: String { ClientConfig.fileKey("\(applicationId)\n\(accountKey)\n\(directory)") }
}

/// The endpoints an account's settings name, in the config's forms. The
/// service names bare hosts (`api.example.com`, `chat.example.com`), the
/// sandbox URLs; both are taken: a bare API host is HTTPS, a bare chat host is
/// TLS from the first byte on 5223, or STARTTLS when its port is 5222.
package struct LookedUpEndpoints: Sendable, Equatable {
    package var api: String
    package var chat: String

    /// nil when either is missing or not an endpoint chatctl can use.
    package init?(apiEndpoint: String?, chatEndpoint: String?) {
        guard var api = apiEndpoint, !api.isEmpty, !api.contains(" "),
              let chatText = chatEndpoint, !chatText.isEmpty, !chatText.contains(" ") else { return nil }
        if !api.contains("://") { api = "https://" + api }
        while api.hasSuffix("/") { api.removeLast() }
        guard let url = EndpointURL(api), url.scheme == "https" || url.scheme == "http" else { return nil }
        var chat = chatText
        if !chat.contains("://") {
            chat = chat.hasSuffix(":5222") ? "xmpp://" + chat : "xmpps://" + chat + (chat.contains(":") ? "" : ":5223")
        }
        guard ChatEndpoint(parsing: chat) != nil else { return nil }
        self.api = api
        self.chat = chat
    }

    init(api: String, chat: String) { self.api = api; self.chat = chat }

    /// Lets the rest of a config be checked before anything is looked up.
    static let placeholder = LookedUpEndpoints(api: "https://localhost", chat: "xmpps://localhost:5223")
}
