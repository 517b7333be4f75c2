import SandboxClock
import SandboxXML

/// How much of a room's discussion history a joining occupant asked for (XEP-0045 §7.2.15):
/// `<history maxstanzas= maxchars= seconds= since=/>` in the join presence's
/// `<x xmlns='http://jabber.org/protocol/muc'>`. Every limit given applies; an attribute that
/// is not a number (or a date) is ignored; a join without `<history/>` gets the room's default.
struct RoomHistoryRequest: Equatable {
    /// What a join that asks for nothing gets (Prosody's default too).
    static let defaultStanzas = 20
    /// The most a join may ask for.
    static let stanzaCeiling = 500

    /// At most this many messages, newest kept.
    var maxStanzas: Int
    /// At most this many characters in all, counting whole stanzas as sent (XEP-0045's count).
    var maxChars: Int?
    /// Only messages sent at or after this time (unix seconds), from `seconds` or `since`.
    var notBefore: Double?

    init(maxStanzas: Int = RoomHistoryRequest.defaultStanzas, maxChars: Int? = nil, notBefore: Double? = nil) {
        self.maxStanzas = maxStanzas
        self.maxChars = maxChars
        self.notBefore = notBefore
    }

    /// The request in a join presence; `now` turns `seconds` into a time.
    init(join presence: XMPPElement, now: Double) {
        self.init()
        guard let history = presence.child("x", namespace: XMPPNamespace.muc)?.child("history") else { return }
        if let n = Self.count(history[attribute: "maxstanzas"]) { maxStanzas = min(n, Self.stanzaCeiling) }
        maxChars = Self.count(history[attribute: "maxchars"])
        var times: [Double] = []
        if let seconds = Self.count(history[attribute: "seconds"]) { times.append(now - Double(seconds)) }
        if let since = history[attribute: "since"].flatMap(Self.dateTime) { times.append(since) }
        notBefore = times.max()
    }

    /// Which of `rendered` (stanzas oldest first, as they would be sent) go out: the newest that
    /// fit within `maxChars`, still oldest first. `maxStanzas` and `notBefore` were applied
    /// when the messages were read.
    func fitting(_ rendered: [String]) -> [String] {
        guard let maxChars else { return rendered }
        var total = 0
        var kept = 0
        for stanza in rendered.reversed() {
            total += stanza.count
            if total > maxChars { break }
            kept += 1
        }
        return Array(rendered.suffix(kept))
    }

    private static func count(_ text: String?) -> Int? {
        guard let text, let n = Int(text.trimmedWhitespace), n >= 0 else { return nil }
        return n
    }

    /// A XEP-0082 DateTime, `2026-11-30T21:14:35Z`, with optional fractions and a `Z` or
    /// `±hh:mm` zone; unix seconds, or nil when it is not one.
    static func dateTime(_ text: String) -> Double? {
        var text = Substring(text.trimmedWhitespace)
        var offset = 0.0
        if text.hasSuffix("Z") {
            text = text.dropLast()
        } else if text.count > 6, let sign = text.dropLast(5).last, sign == "+" || sign == "-" {
            let zone = text.suffix(5)   // hh:mm
            guard zone.count == 5, zone[zone.index(zone.startIndex, offsetBy: 2)] == ":",
                  let hours = Int(zone.prefix(2)), let minutes = Int(zone.suffix(2)), hours < 24, minutes < 60 else { return nil }
            offset = Double(hours * 3600 + minutes * 60) * (sign == "+" ? 1 : -1)
            text = text.dropLast(6)
        } else {
            return nil
        }
        if let dot = text.firstIndex(of: ".") {
            guard text[text.index(after: dot)...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            text = text[..<dot]
        }
        guard let seconds = SandboxTime.parseISO8601(String(text) + "Z") else { return nil }
        return seconds - offset
    }
}
