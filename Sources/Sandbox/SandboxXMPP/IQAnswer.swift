import SandboxXML

/// The answer to an IQ a client sent the server itself (its roster, its privacy lists): the
/// request's `id`, no `from` (the account answers), `to` the asking resource.
enum IQAnswer {
    static func result(_ iq: XMPPElement, to connection: XMPPClientConnection, payload: String = "") -> String {
        header(iq, type: "result", to: connection) + (payload.isEmpty ? "/>" : ">" + payload + "</iq>")
    }

    static func error(_ iq: XMPPElement, to connection: XMPPClientConnection, _ error: StanzaError) -> String {
        header(iq, type: "error", to: connection) + ">" + error.xml + "</iq>"
    }

    private static func header(_ iq: XMPPElement, type: String, to connection: XMPPClientConnection) -> String {
        var reply = "<iq type='\(type)' id='\(XMLEscaping.attribute(iq[attribute: "id"] ?? ""))'"
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        return reply
    }
}
