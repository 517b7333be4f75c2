import SandboxXML

/// What a client connection tells, and asks, whoever serves it: the server registers a handler
/// for each (as Prosody's modules hook the events a session raises), and the connection calls
/// them knowing nothing else of the server. Made once per server and shared by its connections.
struct ConnectionEvents {
    /// It authenticated: it no longer counts against its address's streams not yet authenticated.
    var authenticated: (XMPPClientConnection) -> Void
    /// It asks to bind `requested` (or a generated resource); answered with the resource bound.
    var bind: (XMPPClientConnection, _ requested: String?) -> String
    /// A message, presence or IQ from its bound session, to route.
    var stanza: (XMPPElement, StanzaKind, XMPPClientConnection) -> Void
    /// It may be resumed (XEP-0198 §5) by `id`.
    var resumable: (XMPPClientConnection, _ id: String) -> Void
    /// It may no longer be resumed.
    var unresumable: (XMPPClientConnection) -> Void
    /// The resumable session `id` of `userId`, if there is one.
    var findResumable: (_ id: String, _ userId: Int) -> XMPPClientConnection?
    /// `successor` took over `previous`'s session.
    var resumed: (_ previous: XMPPClientConnection, _ successor: XMPPClientConnection) -> Void
    /// Its session ends (it closes, or another took its resource): out of its rooms, its resource gone.
    var unbound: (XMPPClientConnection) -> Void
    /// It is closed: nothing may keep it.
    var closed: (XMPPClientConnection) -> Void
}
