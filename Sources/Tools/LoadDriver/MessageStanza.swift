import XMPPTransport

/// How a load client writes a message: chatctl's 1:1 and group stanzas (docs/protocol.md §7),
/// `save_to_history` 1, the dialog named, a fresh ObjectId (chatctl's own generator's) as its id.
package struct MessageStanza {
    private let prefix: [UInt8]
    private let middle: [UInt8]
    private let suffix: [UInt8]

    /// `to` is the peer's bare JID (`type="chat"`) or the room's (`type="groupchat"`).
    package init(to: String, groupchat: Bool, dialogId: String) {
        prefix = Array("<message type='\(groupchat ? "groupchat" : "chat")' to='\(to)' id='".utf8)
        middle = Array("'><body>".utf8)
        suffix = Array("</body><markable xmlns='urn:xmpp:chat-markers:0'/><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><dialog_id>\(dialogId)</dialog_id><date_sent>".utf8)
    }

    /// Appends the stanza to `out`.
    package func render(id: ObjectID, body: String, dateSent: Int, into out: inout [UInt8]) {
        out.append(contentsOf: prefix)
        out.append(contentsOf: id.rawValue.utf8)
        out.append(contentsOf: middle)
        out.append(contentsOf: body.utf8)
        out.append(contentsOf: suffix)
        out.append(contentsOf: String(dateSent).utf8)
        out.append(contentsOf: "</date_sent></extraParams></message>".utf8)
    }
}
