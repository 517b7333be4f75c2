/// Namespaces the server speaks.
enum XMPPNamespace {
    static let streams = "http://etherx.jabber.org/streams"
    static let client = "jabber:client"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let tls = "urn:ietf:params:xml:ns:xmpp-tls"
    static let sasl = "urn:ietf:params:xml:ns:xmpp-sasl"
    static let bind = "urn:ietf:params:xml:ns:xmpp-bind"
    static let session = "urn:ietf:params:xml:ns:xmpp-session"
    static let streamErrors = "urn:ietf:params:xml:ns:xmpp-streams"
    static let stanzaErrors = "urn:ietf:params:xml:ns:xmpp-stanzas"
    static let streamManagement = "urn:xmpp:sm:3"
    static let ping = "urn:xmpp:ping"
    static let roster = "jabber:iq:roster"
    static let carbons = "urn:xmpp:carbons:2"
    static let discoInfo = "http://jabber.org/protocol/disco#info"
    static let discoItems = "http://jabber.org/protocol/disco#items"
}
