#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClientConfiguration
import Diagnostics
import HTTPTransport
import QuickBloxAPI

/// The endpoints a config leaves to its account key: asked once with
/// `GET /account_settings.json` and kept in the state directory
/// (`endpoints-{key}.json`, 0600), so later commands ask nothing (docs/protocol.md §1).
/// Removing the file makes the next command ask again.
package struct AccountSettingsCache: Sendable {
    package let directory: String

    package init(directory: String) { self.directory = directory }

    package func path(for lookup: EndpointLookup) -> String { "\(directory)/endpoints-\(lookup.cacheKey).json" }

    /// The cached endpoints, else the server's answer (then cached).
    package func endpoints(for lookup: EndpointLookup, transport: any HTTPTransporting) throws(Failure) -> LookedUpEndpoints {
        if let cached = cached(lookup) { return cached }
        let found = try ask(lookup, transport: transport)
        let record: JSONValue = ["api_endpoint": .string(found.api), "chat_endpoint": .string(found.chat),
                                 "looked_up_at": .int(Int(Date().timeIntervalSince1970))]
        // Not cached (an unwritable state directory) costs the next command one request, not this one its run.
        try? PrivateFiles.writeAtomically(path(for: lookup), Array(record.compactText.utf8))
        return found
    }

    /// The endpoints kept from an earlier lookup, without asking; nil when there are none.
    package func cached(_ lookup: EndpointLookup) -> LookedUpEndpoints? {
        guard let bytes = PrivateFiles.read(path(for: lookup)),
              let json = try? JSONValue(parsing: bytes) else { return nil }
        return LookedUpEndpoints(apiEndpoint: json["api_endpoint"]?.stringValue, chatEndpoint: json["chat_endpoint"]?.stringValue)
    }

    private func ask(_ lookup: EndpointLookup, transport: any HTTPTransporting) throws(Failure) -> LookedUpEndpoints {
        // The call needs no session, so the application's credentials play no part in it.
        let client = QuickBloxClient(apiEndpoint: lookup.directory,
                                     credentials: AppCredentials(applicationId: lookup.applicationId, authKey: "", authSecret: ""),
                                     transport: transport)
        let settings: QBAccountSettings
        do { settings = try client.accountSettings(accountKey: lookup.accountKey) } catch {
            if let status = error.status, [401, 403, 404, 422].contains(status) {
                throw Failure(.failure, "look up the endpoints: \(error.reasons.joined(separator: "; ")) (\(status) from \(error.request))",
                                    hint: "check accountKey in the config, or give \"endpoints\"")
            }
            throw Failure(describing: error, doing: "look up the endpoints")
        }
        guard let found = LookedUpEndpoints(apiEndpoint: settings.apiEndpoint, chatEndpoint: settings.chatEndpoint) else {
            throw Failure(.failure, "look up the endpoints: GET \(lookup.directory)/account_settings.json named no usable api_endpoint and chat_endpoint",
                                hint: "give \"endpoints\" in the config")
        }
        return found
    }
}
