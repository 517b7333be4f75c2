/// The names chat is served under: the XMPP domain, and the application whose users
/// (`{id}-{appId}@{domain}`) and rooms (`{appId}_{dialogId}@muc.{domain}`) it knows.
struct ChatDomain {
    /// Lowercased.
    let name: String
    let applicationId: Int

    init(name: String, applicationId: Int) {
        self.name = name.lowercased()
        self.applicationId = applicationId
    }

    func userJID(_ id: Int) -> String { "\(id)-\(applicationId)@\(name)" }
    func roomJID(_ dialogId: String) -> String { "\(applicationId)_\(dialogId)@muc.\(name)" }
    /// The MUC service's own address.
    var mucService: String { "muc." + name }
}
