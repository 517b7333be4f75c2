/// One `<attachment …/>` of a chat message (docs/protocol.md §7, §8): the fields
/// are its attributes, as the QuickBlox SDKs write them directly inside
/// `extraParams`: `type` (image, video, audio, file, or whatever the sender
/// chose), `id` (the blob uid), `name`, `size` (bytes), `content-type`, `url`, and
/// anything else an app adds (`width`, `height`, `duration`, `data`…). Their order
/// carries no meaning (libstrophe does not keep it; equality ignores it). The
/// values are another user's word: sanitize before printing.
package struct ChatAttachment: Sendable, Equatable {
    /// As written (when built here) or as the parser gave them.
    package var attributes: [StanzaElement.Attribute]

    package init(attributes: [StanzaElement.Attribute]) { self.attributes = attributes }

    /// The protocol's fields in its order (type, id, name, size, content-type, url),
    /// those that are nil left out, then `extra` sorted by name.
    package init(type: String?, id: String?, name: String? = nil, size: Int? = nil, contentType: String? = nil,
                url: String? = nil, extra: [String: String] = [:]) {
        let fields: [(String, String?)] = [("type", type), ("id", id), ("name", name), ("size", size.map(String.init)),
                                           ("content-type", contentType), ("url", url)]
        attributes = fields.compactMap { name, value in value.map { .init(name, $0) } }
        for key in extra.keys.sorted() where self[key] == nil { attributes.append(.init(key, extra[key]!)) }
    }

    package static func == (a: ChatAttachment, b: ChatAttachment) -> Bool {
        func sorted(_ x: ChatAttachment) -> [StanzaElement.Attribute] {
            x.attributes.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        }
        return sorted(a) == sorted(b)
    }

    /// The first attribute called `name`.
    package subscript(name: String) -> String? { attributes.first { $0.name == name }?.value }

    package var type: String? { self["type"] }
    /// The blob uid.
    package var id: String? { self["id"] }
    package var name: String? { self["name"] }
    package var url: String? { self["url"] }
    /// `content-type` as the SDKs write it; `content_type` from a sender that copied the REST spelling.
    package var contentType: String? { self["content-type"] ?? self["content_type"] }

    /// Bytes, from `1258291`, ` 1258291 ` or `1258291.0` (an SDK that keeps sizes
    /// as doubles); nil when absent or not a whole, non-negative number of digits.
    package var size: Int? {
        guard let text = self["size"]?.trimmingWhitespace, !text.isEmpty,
              text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }) else { return nil }
        if let value = Int(text) { return value }
        guard let value = Double(text), value.isFinite, value >= 0, value < 9.0e15, value.rounded() == value else { return nil }
        return Int(value)
    }

    /// The element as it goes into `extraParams`.
    var element: StanzaElement { StanzaElement("attachment", attributes: attributes) }

    /// Why XML cannot carry this attachment, or nil. Quotes the attribute's name, never its value.
    var validationProblem: String? {
        for attribute in attributes {
            if !StanzaElement.isSimpleName(attribute.name) {
                return "attachment attribute name \"\(attribute.name)\" is not allowed (letters, digits, _ - .)"
            }
            if MarkupEscaper.firstCharacterXMLCannotCarry(in: attribute.value) != nil {
                return "attachment attribute \"\(attribute.name)\" contains a control character XML cannot carry"
            }
        }
        if Set(attributes.map(\.name)).count != attributes.count { return "an attachment names one attribute twice" }
        return nil
    }
}

private extension String {
    var trimmingWhitespace: Substring {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
