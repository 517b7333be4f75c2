/// Namespaces the server speaks.
package enum XMPPNamespace {
    package static let streams = "http://etherx.jabber.org/streams"
    package static let client = "jabber:client"
    package static let xml = "http://www.w3.org/XML/1998/namespace"
    package static let tls = "urn:ietf:params:xml:ns:xmpp-tls"
    package static let sasl = "urn:ietf:params:xml:ns:xmpp-sasl"
    package static let bind = "urn:ietf:params:xml:ns:xmpp-bind"
    package static let session = "urn:ietf:params:xml:ns:xmpp-session"
    package static let streamErrors = "urn:ietf:params:xml:ns:xmpp-streams"
    package static let stanzaErrors = "urn:ietf:params:xml:ns:xmpp-stanzas"
    package static let streamManagement = "urn:xmpp:sm:3"
    package static let ping = "urn:xmpp:ping"
    package static let roster = "jabber:iq:roster"
    package static let privacy = "jabber:iq:privacy"
    package static let carbons = "urn:xmpp:carbons:2"
    package static let discoInfo = "http://jabber.org/protocol/disco#info"
    package static let discoItems = "http://jabber.org/protocol/disco#items"
    package static let forward = "urn:xmpp:forward:0"
    package static let hints = "urn:xmpp:hints"
    package static let chatMarkers = "urn:xmpp:chat-markers:0"
    package static let chatStates = "http://jabber.org/protocol/chatstates"
    package static let muc = "http://jabber.org/protocol/muc"
    package static let mucUser = "http://jabber.org/protocol/muc#user"
    /// XEP-0045 since 1.31: a reflected message keeps the id its sender gave it.
    package static let mucStableId = "http://jabber.org/protocol/muc#stable_id"
    /// XEP-0359: `<stanza-id/>` (the server's id) and `<origin-id/>` (the sender's).
    package static let stanzaIds = "urn:xmpp:sid:0"
    /// XEP-0203: when a message from history was first sent.
    package static let delay = "urn:xmpp:delay"
    /// XEP-0012: how long ago a user was last online.
    package static let lastActivity = "jabber:iq:last"
}
