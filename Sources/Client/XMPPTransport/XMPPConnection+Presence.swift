/// Users' presence (docs/protocol.md §7, "Presence and last activity"): what arrives is
/// reported as `.presence`; last activity (XEP-0012) is asked here and answered as `.lastActivity`.
extension XMPPConnection {
    /// Asks the server when `user` (a user JID; the resource is dropped) was last online.
    /// Not tracked: the answer, or an error for it, comes as `.lastActivity`.
    package func requestLastActivity(of user: ChatJID) throws(XMPPError) {
        _ = try sendStanza(LastActivity.request(to: user, id: idGenerator.next().description).xml(), messageID: nil)
    }
}
