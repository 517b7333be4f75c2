/// What went wrong starting the XMPP side (a listener, the WebSocket watch).
package struct XMPPServerError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
