import SandboxXML

/// A stanza as the router passes it on (`XMPPStanzaRouter.forwarded`): new `from`/`to`/`id`,
/// `<stanza-id/>`s the sender wrote dropped, an `<origin-id/>` and a `<stanza-id/>` added,
/// `dialog_id` and `date_sent` set in `extraParams`, and optionally a chat marker's id
/// replaced. `serialized` writes those bytes straight from the parsed stanza: building the
/// copy's tree first (new attribute and child arrays, new elements) cost a routed message
/// more than writing it did. `element` is that copy as a tree: what the bytes must equal.
struct ForwardedStanza {
    let stanza: XMPPElement
    let from: String
    let to: String
    let id: String?
    let dialogId: String?
    let dateSent: Int?
    let originId: String?
    let stanzaId: (id: String, by: String)?
    /// The first chat marker child whose `id` is `old` gets `new` (docs/protocol.md §7: the
    /// sender knows its message by the id it gave it).
    var markerId: (old: String, new: String)?

    init(_ stanza: XMPPElement, from: String, to: String, id: String?, dialogId: String?, dateSent: Int?,
         originId: String? = nil, stanzaId: (id: String, by: String)? = nil, markerId: (old: String, new: String)? = nil) {
        self.stanza = stanza
        self.from = from
        self.to = to
        self.id = id
        self.dialogId = dialogId
        self.dateSent = dateSent
        self.originId = originId
        self.stanzaId = stanzaId
        self.markerId = markerId
    }

    private var addsOriginId: Bool {
        guard let originId, originId != id else { return false }
        return !stanza.hasChild("origin-id", namespace: XMPPNamespace.stanzaIds)
    }

    private static func isMarker(_ e: XMPPElement, id: String) -> Bool {
        e.namespace == XMPPNamespace.chatMarkers && e[attribute: "id"] == id
    }

    /// The copy as a tree.
    var element: XMPPElement {
        var copy = XMPPStanzaRouter.forwarded(stanza, from: from, to: to, id: id, dialogId: dialogId, dateSent: dateSent,
                                              originId: originId, stanzaId: stanzaId)
        if let markerId, let i = copy.children.firstIndex(where: {
            if case .element(let e) = $0 { return Self.isMarker(e, id: markerId.old) }
            return false
        }), case .element(var marker) = copy.children[i] {
            marker.attributes = marker.attributes.map { $0.name == "id" ? .init(name: "id", value: markerId.new) : $0 }
            copy.children[i] = .element(marker)
        }
        return copy
    }

    /// The copy's bytes, as `element.serialized(parentNamespace:)` writes them.
    func bytes(parentNamespace: String?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        serialize(into: &out, parentNamespace: parentNamespace)
        return out
    }

    func serialized(parentNamespace: String?) -> String {
        String(decoding: bytes(parentNamespace: parentNamespace), as: UTF8.self)
    }

    func serialize(into out: inout [UInt8], parentNamespace: String?) {
        let namespace = stanza.namespace
        out.append(UInt8(ascii: "<"))
        XMLEscaping.appendRaw(stanza.name, to: &out)
        if namespace != parentNamespace { XMLEscaping.appendAttribute(name: "xmlns", value: namespace, to: &out) }
        XMLEscaping.appendAttribute(name: "from", value: from, to: &out)
        XMLEscaping.appendAttribute(name: "to", value: to, to: &out)
        for attribute in stanza.attributes where attribute.name != "from" && attribute.name != "to" && attribute.name != "id" {
            XMLEscaping.appendAttribute(name: attribute.name, value: attribute.value, to: &out)
        }
        if let id { XMLEscaping.appendAttribute(name: "id", value: id, to: &out) }

        let setsParams = dialogId != nil || dateSent != nil
        let addsOriginId = addsOriginId
        var paramsWritten = false
        var markerReplaced = markerId == nil
        var hasChildren = false
        func open() {
            if !hasChildren { out.append(UInt8(ascii: ">")); hasChildren = true }
        }
        for node in stanza.children {
            switch node {
            case .text(let text):
                open()
                XMLEscaping.appendText(text, to: &out)
            case .element(let e):
                if e.name == "stanza-id" && e.namespace == XMPPNamespace.stanzaIds { continue }
                open()
                if setsParams && !paramsWritten && e.name == "extraParams" {
                    paramsWritten = true
                    writeParams(e, into: &out, parentNamespace: namespace)
                } else if !markerReplaced, let markerId, Self.isMarker(e, id: markerId.old) {
                    markerReplaced = true
                    var marker = e
                    marker.attributes = marker.attributes.map { $0.name == "id" ? .init(name: "id", value: markerId.new) : $0 }
                    marker.serialize(into: &out, parentNamespace: namespace)
                } else {
                    e.serialize(into: &out, parentNamespace: namespace)
                }
            }
        }
        if addsOriginId, let originId {
            open()
            Self.emptyElement("origin-id", XMPPNamespace.stanzaIds, parentNamespace: namespace, [("id", originId)], into: &out)
        }
        if let stanzaId {
            open()
            Self.emptyElement("stanza-id", XMPPNamespace.stanzaIds, parentNamespace: namespace,
                              [("id", stanzaId.id), ("by", stanzaId.by)], into: &out)
        }
        if setsParams && !paramsWritten {
            open()
            writeParams(XMPPElement(name: "extraParams", namespace: XMPPNamespace.client), into: &out, parentNamespace: namespace)
        }
        guard hasChildren else {
            out.append(UInt8(ascii: "/"))
            out.append(UInt8(ascii: ">"))
            return
        }
        XMLEscaping.appendEndTag(stanza.name, to: &out)
    }

    /// `params` with `dialog_id` and `date_sent` set: the first child of that name replaced
    /// (in the params' namespace, with the new text only), else one added at the end.
    private func writeParams(_ params: XMPPElement, into out: inout [UInt8], parentNamespace: String) {
        out.append(UInt8(ascii: "<"))
        XMLEscaping.appendRaw(params.name, to: &out)
        if params.namespace != parentNamespace { XMLEscaping.appendAttribute(name: "xmlns", value: params.namespace, to: &out) }
        for attribute in params.attributes { XMLEscaping.appendAttribute(name: attribute.name, value: attribute.value, to: &out) }
        out.append(UInt8(ascii: ">"))
        let date = dateSent.map(String.init)
        var dialogWritten = dialogId == nil
        var dateWritten = date == nil
        for node in params.children {
            switch node {
            case .text(let text):
                XMLEscaping.appendText(text, to: &out)
            case .element(let e):
                if !dialogWritten, let dialogId, e.name == "dialog_id" {
                    dialogWritten = true
                    Self.textElement("dialog_id", dialogId, into: &out)
                } else if !dateWritten, let date, e.name == "date_sent" {
                    dateWritten = true
                    Self.textElement("date_sent", date, into: &out)
                } else {
                    e.serialize(into: &out, parentNamespace: params.namespace)
                }
            }
        }
        if !dialogWritten, let dialogId { Self.textElement("dialog_id", dialogId, into: &out) }
        if !dateWritten, let date { Self.textElement("date_sent", date, into: &out) }
        XMLEscaping.appendEndTag(params.name, to: &out)
    }

    private static func emptyElement(_ name: String, _ namespace: String, parentNamespace: String,
                                     _ attributes: [(String, String)], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        XMLEscaping.appendRaw(name, to: &out)
        if namespace != parentNamespace { XMLEscaping.appendAttribute(name: "xmlns", value: namespace, to: &out) }
        for (name, value) in attributes { XMLEscaping.appendAttribute(name: name, value: value, to: &out) }
        out.append(UInt8(ascii: "/"))
        out.append(UInt8(ascii: ">"))
    }

    /// `<name>text</name>` in its parent's namespace.
    private static func textElement(_ name: String, _ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        XMLEscaping.appendRaw(name, to: &out)
        out.append(UInt8(ascii: ">"))
        XMLEscaping.appendText(text, to: &out)
        XMLEscaping.appendEndTag(name, to: &out)
    }
}
