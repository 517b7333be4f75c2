// A push event's message (docs/protocol.md §14): the forms QuickBlox takes, how a platform push
// given as universal text is put in its platform's form, and what each push service's device
// would be handed. Pure: no storage, no I/O.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SandboxJSON
import SandboxStorage

/// Why a message cannot be taken: 422 for one of the wrong form, 413 for a payload larger
/// than its push service takes.
struct PushMessageRefusal: Error, Equatable {
    var status: Int
    var message: String
}

enum PushMessage {
    /// The most a push service takes, in bytes: APNs' payload (VoIP's is larger) and FCM's data.
    static let payloadLimits: [PushChannel: Int] = [.apns: 4096, .apnsVoIP: 5120, .gcm: 4096]

    /// The message an event keeps for `channel` (nil: a universal push). Universal text and
    /// mail must be Base64 of UTF-8 text. A platform push is kept in its platform's form:
    /// `payload=` and the Base64 of a JSON object for APNs, `data.message=…&data.key=…` (each
    /// value the Base64 of CGI-escaped text, `data.message` first) for GCM; given as universal
    /// text instead, it is put in that form. MPNS and BBPS messages are kept as they are.
    static func stored(_ message: String, channel: PushChannel?) throws(PushMessageRefusal) -> String {
        guard !message.isEmpty else { throw PushMessageRefusal(status: 422, message: "can't be blank") }
        switch channel {
        case nil, .email?:
            guard let text = decodedText(message) else {
                throw PushMessageRefusal(status: 422, message: "must be Base64-encoded UTF-8 text")
            }
            if channel == nil {
                try checkSize(apnsPayload(universal: text).serialized, .apns)
                try checkSize(gcmData(gcmForm(universal: text)), .gcm)
            }
            return message
        case .apns?, .apnsVoIP?:
            let form: String
            if message.hasPrefix("payload=") {
                form = message
            } else if let text = decodedText(message) {
                form = "payload=" + base64(apnsPayload(universal: text).serialized)
            } else {
                throw PushMessageRefusal(status: 422, message: "must be payload= and the Base64 of a JSON object, or Base64-encoded text")
            }
            guard let payload = apnsPayload(form: form) else {
                throw PushMessageRefusal(status: 422, message: "payload= must be followed by the Base64 of a JSON object")
            }
            try checkSize(payload, channel!)
            return form
        case .gcm?:
            let form: String
            if message.hasPrefix("data.") {
                form = message
            } else if let text = decodedText(message) {
                form = gcmForm(universal: text)
            } else {
                throw PushMessageRefusal(status: 422, message: "must be data.message=… (each value Base64), or Base64-encoded text")
            }
            guard let pairs = gcmPairs(form) else {
                throw PushMessageRefusal(status: 422, message: """
                    must be data.KEY=VALUE pairs joined by &, data.message first, each VALUE the Base64 of CGI-escaped text
                    """)
            }
            try checkSize(gcmData(pairs), .gcm)
            return form
        case .mpns?, .bbps?:
            return message
        }
    }

    /// What a device on `device`'s channel is handed for an event's stored message, whose
    /// channel is `channel` (nil: universal): for APNs the JSON payload, for GCM
    /// `{"collapse_key":"event{id}","data":{…}}` (values as FCM hands them to the app, still
    /// CGI-escaped), for mail the text, for MPNS and BBPS the message.
    static func payload(_ stored: String, channel: PushChannel?, device: PushChannel, eventId: Int) -> String {
        switch channel {
        case nil:
            let text = decodedText(stored) ?? stored
            switch device {
            case .apns, .apnsVoIP: return apnsPayload(universal: text).serialized
            case .gcm: return gcmPayload(gcmPairs(gcmForm(universal: text)) ?? [], eventId: eventId)
            case .mpns, .bbps, .email: return text
            }
        case .apns?, .apnsVoIP?: return apnsPayload(form: stored) ?? stored
        case .gcm?: return gcmPayload(gcmPairs(stored) ?? [], eventId: eventId)
        case .email?: return decodedText(stored) ?? stored
        case .mpns?, .bbps?: return stored
        }
    }

    private static func checkSize(_ payload: String, _ channel: PushChannel) throws(PushMessageRefusal) {
        guard let limit = payloadLimits[channel], payload.utf8.count > limit else { return }
        throw PushMessageRefusal(status: 413, message: "is too large for \(channel.rawValue): a payload of \(payload.utf8.count) bytes, at most \(limit)")
    }

    // MARK: universal text

    /// Universal text with custom parameters: a JSON object with a `message` (docs/protocol.md
    /// §14); nil for plain text.
    static func parameters(universal text: String) -> [(String, JSONNode)]? {
        guard text.first == "{", case .object(let members)? = try? JSONParser.parse(Array(text.utf8)),
              members.contains(where: { $0.0 == "message" }) else { return nil }
        return members
    }

    /// Universal text as APNs takes it: the text as `aps.alert`; of the parameters, `message`
    /// as the alert, `ios_badge`, `ios_sound`, `ios_category`, `ios_content_available=1` and
    /// `ios_mutable_content=1` into `aps`, the other keys at the root (`ios_voip` dropped).
    static func apnsPayload(universal text: String) -> JSONNode {
        guard let parameters = parameters(universal: text) else { return .object([("aps", .object([("alert", .string(text))]))]) }
        var aps: [(String, JSONNode)] = []
        var root: [(String, JSONNode)] = []
        for (key, value) in parameters {
            switch key {
            case "message": aps.append(("alert", value))
            case "ios_badge": aps.append(("badge", Int(textOf(value)).map(JSONNode.int) ?? value))
            case "ios_sound": aps.append(("sound", value))
            case "ios_category": aps.append(("category", value))
            case "ios_content_available": if textOf(value) == "1" { aps.append(("content-available", .int(1))) }
            case "ios_mutable_content": if textOf(value) == "1" { aps.append(("mutable-content", .int(1))) }
            case "ios_voip": break
            default: root.append((key, value))
            }
        }
        return .object([("aps", .object(aps))] + root)
    }

    /// Universal text as GCM's form: `data.message` the text, then each other parameter but the
    /// `ios_` ones as `data.KEY`; every value the Base64 of its CGI-escaped text.
    static func gcmForm(universal text: String) -> String {
        var pairs = [("message", text)]
        if let parameters = parameters(universal: text) {
            pairs = parameters.filter { $0.0 == "message" }.map { ($0.0, textOf($0.1)) }
                + parameters.filter { $0.0 != "message" && !$0.0.hasPrefix("ios_") }.map { ($0.0, textOf($0.1)) }
        }
        return pairs.map { "data.\($0.0)=" + base64(cgiEscape($0.1)) }.joined(separator: "&")
    }

    /// A JSON value as text: a string's own text, anything else its JSON.
    private static func textOf(_ value: JSONNode) -> String {
        if case .string(let s) = value { return s }
        return value.serialized
    }

    // MARK: platform forms

    /// The JSON object after `payload=`, as its text; nil when it is no JSON object.
    static func apnsPayload(form: String) -> String? {
        guard form.hasPrefix("payload="), let text = decodedText(String(form.dropFirst("payload=".count))),
              case .object? = try? JSONParser.parse(Array(text.utf8)) else { return nil }
        return text
    }

    /// `data.KEY=VALUE&…` as (KEY, the Base64-decoded VALUE) pairs; nil unless every pair is
    /// `data.` and a key, each value Base64 of text, and `data.message` first.
    static func gcmPairs(_ form: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for part in form.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "="), part.hasPrefix("data.") else { return nil }
            let key = String(part[part.index(part.startIndex, offsetBy: 5)..<equals])
            guard !key.isEmpty, let value = decodedText(String(part[part.index(after: equals)...])) else { return nil }
            pairs.append((key, value))
        }
        guard pairs.first?.0 == "message" else { return nil }
        return pairs
    }

    /// GCM's data as FCM's JSON.
    private static func gcmData(_ pairs: [(String, String)]) -> String {
        JSONNode.object(pairs.map { ($0.0, .string($0.1)) }).serialized
    }

    private static func gcmData(_ form: String) -> String { gcmData(gcmPairs(form) ?? []) }

    private static func gcmPayload(_ pairs: [(String, String)], eventId: Int) -> String {
        JSONNode.object([("collapse_key", .string("event\(eventId)")),
                         ("data", .object(pairs.map { ($0.0, .string($0.1)) }))]).serialized
    }

    // MARK: encodings

    /// Base64 (whitespace ignored: documents wrap it) of UTF-8 text; nil otherwise.
    static func decodedText(_ base64: String) -> String? {
        let compact = String(base64.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        guard !compact.isEmpty, let data = Data(base64Encoded: compact) else { return nil }
        return String(validating: Array(data), as: UTF8.self)
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    /// CGI escaping as Ruby's `CGI.escape` does it, which the service applies: letters, digits
    /// and `_.-~` stay, a space becomes `+`, every other byte `%XX`.
    static func cgiEscape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
