/// One element of an XMPP stream (a stanza or a nonza), as parsed by
/// `XMLStreamParser`: namespaces resolved, prefixes dropped on elements.
package struct XMPPElement: Equatable {
    package struct Attribute: Equatable {
        package var name: String      // "xml:lang" for the xml namespace, else local or "prefix:local"
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
    package enum Node: Equatable {
        case element(XMPPElement)
        case text(String)
    }

    package var name: String
    package var namespace: String
    package var attributes: [Attribute] = []
    package var children: [Node] = []

    package init(name: String, namespace: String, attributes: [Attribute] = [], children: [Node] = []) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
    }

    package subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    package var elements: [XMPPElement] {
        children.compactMap { if case .element(let e) = $0 { return e } else { return nil } }
    }

    /// The first child element named `name` (in `namespace`, when given). Every routed
    /// message asks several times, so no array of the children is made.
    package func child(_ name: String, namespace: String? = nil) -> XMPPElement? {
        for node in children {
            if case .element(let e) = node, e.name == name, namespace == nil || e.namespace == namespace { return e }
        }
        return nil
    }

    // What the router asks of every routed message, answered in place. `child` hands back a
    // copy of the element it finds (its arrays retained, then released): the optimizer took it
    // out while the router shared this module, but it inlines no `package` function across modules.

    /// Whether a child element is named `name` (in `namespace`, when given).
    package func hasChild(_ name: String, namespace: String? = nil) -> Bool {
        children.contains { if case .element(let e) = $0 { e.name == name && (namespace == nil || e.namespace == namespace) } else { false } }
    }

    /// The character data of the first child element named `name` (in `namespace`, when given).
    package func childText(_ name: String, namespace: String? = nil) -> String? {
        for node in children {
            if case .element(let e) = node, e.name == name, namespace == nil || e.namespace == namespace { return e.text }
        }
        return nil
    }

    /// Attribute `attribute` of the first child element named `name` (in `namespace`, when given).
    package func childAttribute(_ attribute: String, of name: String, namespace: String? = nil) -> String? {
        for node in children {
            if case .element(let e) = node, e.name == name, namespace == nil || e.namespace == namespace { return e[attribute: attribute] }
        }
        return nil
    }

    /// The element's own character data (not its descendants').
    package var text: String {
        // Usually one piece: hand it back as it is.
        if children.count == 1, case .text(let t) = children[0] { return t }
        return children.reduce(into: "") { if case .text(let t) = $1 { $0 += t } }
    }

    /// Serialized with a default-namespace declaration wherever the namespace
    /// differs from the parent's.
    package func serialized(parentNamespace: String? = nil) -> String {
        // Bytes, then one String: appending many short pieces to a String cost a routed
        // stanza more than storing it did.
        var out: [UInt8] = []
        out.reserveCapacity(512)
        serialize(into: &out, parentNamespace: parentNamespace)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the serialization's UTF-8 to `out`: one buffer for the whole tree.
    package func serialize(into out: inout [UInt8], parentNamespace: String?) {
        out.append(UInt8(ascii: "<"))
        XMLEscaping.appendRaw(name, to: &out)
        if namespace != parentNamespace { XMLEscaping.appendAttribute(name: "xmlns", value: namespace, to: &out) }
        for attribute in attributes { XMLEscaping.appendAttribute(name: attribute.name, value: attribute.value, to: &out) }
        if children.isEmpty {
            out.append(UInt8(ascii: "/"))
            out.append(UInt8(ascii: ">"))
            return
        }
        out.append(UInt8(ascii: ">"))
        for node in children {
            switch node {
            case .element(let e): e.serialize(into: &out, parentNamespace: namespace)
            case .text(let t): XMLEscaping.appendText(t, to: &out)
            }
        }
        XMLEscaping.appendEndTag(name, to: &out)
    }
}
