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
    static let forward = "urn:xmpp:forward:0"
    static let hints = "urn:xmpp:hints"
    static let chatMarkers = "urn:xmpp:chat-markers:0"
    static let chatStates = "http://jabber.org/protocol/chatstates"
    static let muc = "http://jabber.org/protocol/muc"
    static let mucUser = "http://jabber.org/protocol/muc#user"
    /// XEP-0045 since 1.31: a reflected message keeps the id its sender gave it.
    static let mucStableId = "http://jabber.org/protocol/muc#stable_id"
    /// XEP-0359: `<stanza-id/>` (the server's id) and `<origin-id/>` (the sender's).
    static let stanzaIds = "urn:xmpp:sid:0"
    /// XEP-0203: when a message from history was first sent.
    static let delay = "urn:xmpp:delay"
}
