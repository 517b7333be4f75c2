#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A one-shot push to send (`POST /events.json`, docs/protocol.md §14): text and custom
/// parameters, for every device of the recipients (universal) or one service's, in the
/// development or production environment, to users by id and by tag.
package struct QBPushNotification: Sendable, Equatable {
    /// Where it goes: nil a universal push (every push service), else one service, or mail.
    package enum Channel: String, Sendable, CaseIterable {
        case apns
        case apnsVoIP = "apns_voip"
        case gcm
        case email
    }

    package var text: String
    /// Custom parameters (`user_id=234`), in order: an APNs payload's root keys, GCM's
    /// `data.KEY`, a universal push's keys beside `message`. None for mail.
    package var data: [(key: String, value: String)]
    package var channel: Channel?
    package var production: Bool
    package var userIDs: [Int]
    package var tagsAny: [String]
    package var tagsAll: [String]
    package var tagsExclude: [String]
    package var name: String?

    package init(text: String, data: [(key: String, value: String)] = [], channel: Channel? = nil, production: Bool = false,
                 userIDs: [Int] = [], tagsAny: [String] = [], tagsAll: [String] = [], tagsExclude: [String] = [],
                 name: String? = nil) {
        self.text = text; self.data = data; self.channel = channel; self.production = production
        self.userIDs = userIDs; self.tagsAny = tagsAny; self.tagsAll = tagsAll; self.tagsExclude = tagsExclude
        self.name = name
    }

    package static func == (a: QBPushNotification, b: QBPushNotification) -> Bool {
        a.text == b.text && a.data.map(\.key) == b.data.map(\.key) && a.data.map(\.value) == b.data.map(\.value)
            && a.channel == b.channel && a.production == b.production && a.userIDs == b.userIDs && a.tagsAny == b.tagsAny
            && a.tagsAll == b.tagsAll && a.tagsExclude == b.tagsExclude && a.name == b.name
    }

    /// `event[message]` in the form QuickBlox documents for the channel: a universal push
    /// or mail is the Base64 of the text (with parameters, of `{"message":TEXT,KEY:VALUE…}`);
    /// APNs `payload=` and the Base64 of `{"aps":{"alert":TEXT},KEY:VALUE…}`; GCM
    /// `data.message=…&data.KEY=…`, each value the Base64 of its CGI-escaped text.
    package var message: String {
        switch channel {
        case nil, .email?:
            guard !data.isEmpty else { return Self.base64(text) }
            return Self.base64(JSONValue.compactObjectText([(key: "message", value: .string(text))]
                                                           + data.map { (key: $0.key, value: .string($0.value)) }))
        case .apns?, .apnsVoIP?:
            let payload = JSONValue.compactObjectText([(key: "aps", value: .object(["alert": .string(text)]))]
                                                      + data.map { (key: $0.key, value: .string($0.value)) })
            return "payload=" + Self.base64(payload)
        case .gcm?:
            return ([("message", text)] + data.map { ($0.key, $0.value) })
                .map { "data.\($0.0)=" + Self.base64(Self.cgiEscaped($0.1)) }
                .joined(separator: "&")
        }
    }

    /// The request body: `{"event":{…}}` with the recipients given.
    package var body: JSONValue {
        var event: [String: JSONValue] = [
            "notification_type": .string(channel == .email ? "email" : "push"),
            "environment": .string(production ? "production" : "development"),
            "message": .string(message),
        ]
        if let channel, channel != .email { event["push_type"] = .string(channel.rawValue) }
        if let name { event["name"] = .string(name) }
        var user: [String: JSONValue] = [:]
        if !userIDs.isEmpty { user["ids"] = .string(userIDs.map(String.init).joined(separator: ",")) }
        var tags: [String: JSONValue] = [:]
        for (key, list) in [("any", tagsAny), ("all", tagsAll), ("exclude", tagsExclude)] where !list.isEmpty {
            tags[key] = .string(list.joined(separator: ","))
        }
        if !tags.isEmpty { user["tags"] = .object(tags) }
        if !user.isEmpty { event["user"] = .object(user) }
        return ["event": .object(event)]
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    /// CGI escaping as the service does it (Ruby's `CGI.escape`): letters, digits and `_.-~`
    /// stay, a space is `+`, every other byte `%XX`.
    static func cgiEscaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2E || byte == 0x2D || byte == 0x7E {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == 0x20 {
                out.append("+")
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "%")))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return out
    }
}
