/// Decides which libstrophe log lines may reach `--verbose`, which must never show a secret.
/// At debug level libstrophe logs every stanza sent and received, including the
/// SASL `<auth>` element whose text is base64 of "\0user\0password".
enum StropheLogRedactor {
    /// Markers of elements that carry credentials or data derived from them.
    static let secretMarkers = [
        "<auth", "mechanism=", "<response", "<challenge", "<success",
        "jabber:iq:auth", "urn:ietf:params:xml:ns:xmpp-sasl", "<password", "Digest:",
        "AUTHENTICATE:",
    ]

    /// The line to show, or nil to drop it. `secrets` are literal strings (the
    /// password/token) that must never appear, whatever the line.
    static func sanitize(area: String, message: String, secrets: [String]) -> String? {
        let lowered = message.lowercased()
        for marker in secretMarkers where lowered.contains(marker.lowercased()) {
            return "xmpp \(area): [line with SASL data redacted]"
        }
        var text = message
        for secret in secrets where !secret.isEmpty && text.contains(secret) {
            text = text.replacing(secret, with: "[redacted]")
        }
        return "xmpp \(area): \(text)"
    }
}
