extension String {
    /// For attribute values (either quote) and text nodes: StanzaElement's escaping.
    var xmlEscaped: String {
        var out = ""
        StanzaElement.appendEscaped(self, to: &out, inAttribute: true)
        return out
    }
}
