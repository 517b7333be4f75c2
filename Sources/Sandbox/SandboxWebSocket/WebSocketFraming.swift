import SandboxXML

/// RFC 7395's spelling of an XMPP stream over WebSocket, as pure functions, so the
/// session and the router keep writing the TCP stream (docs/protocol.md §7):
///
/// - out: the stream header becomes `<open/>`, `</stream:stream>` becomes `<close/>`,
///   and each top-level element becomes one message that declares its namespaces
///   (`jabber:client` on stanzas, the `stream:` prefix on features and errors);
/// - in: each message is parsed as the children of a stream that declares those
///   namespaces, and `<open/>` stands for the client's stream header.

package enum WebSocketFraming {
    package static let namespace = "urn:ietf:params:xml:ns:xmpp-framing"
    /// Byte for byte what Strophe.js 1.2 compares incoming messages with (double
    /// quotes, a space before `/>`); spelt otherwise, it misses the close.
    package static let closeMessage = "<close xmlns=\"urn:ietf:params:xml:ns:xmpp-framing\" />"
    /// The answer to a client's `<close/>`, spelt otherwise on purpose: Strophe.js 1.4 (QuickBlox's
    /// SDK) ignores its own spelling while it disconnects and finishes only at its 3 s timeout,
    /// where any other message ends its disconnect at once (1.2 does not wait for an answer).
    package static let closeReply = "<close xmlns='\(namespace)'/>"

    private static let streamsNamespace = "http://etherx.jabber.org/streams"
    private static let documentStart = Array("<stream:stream xmlns='jabber:client' xmlns:stream='\(streamsNamespace)'>".utf8)
    private static let documentEnd = Array("</stream:stream>".utf8)

    // MARK: server to client

    /// The WebSocket messages for what the server would write to a TCP stream.
    /// `text` is the server's own, well-formed output: whole elements, a stream
    /// header, a stream end, or several of these in a row.
    package static func messages(fromStream text: String) -> [String] {
        let bytes = Array(text.utf8)
        var messages: [String] = []
        var i = 0
        while i < bytes.count {
            if isSpace(bytes[i]) { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "<") else {
                // Character data between elements is never written; pass it on as it is.
                let end = bytes[i...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                messages.append(String(decoding: bytes[i..<end], as: UTF8.self))
                i = end
                continue
            }
            if starts(bytes, at: i, with: "<?") {
                i = (find(bytes, "?>", from: i).map { $0 + 2 }) ?? bytes.count  // the XML declaration
                continue
            }
            if starts(bytes, at: i, with: "</stream:stream>") {
                messages.append(closeMessage)
                i += 16
                continue
            }
            guard let tag = StartTag(bytes, at: i) else {
                messages.append(String(decoding: bytes[i...], as: UTF8.self))
                break
            }
            if tag.name == "stream:stream" && !tag.isEmpty {
                messages.append(openMessage(tag))
                i = tag.end
                continue
            }
            let end = elementEnd(bytes, after: tag)
            messages.append(declaringNamespaces(tag, String(decoding: bytes[tag.end..<end], as: UTF8.self)))
            i = end
        }
        return messages
    }

    /// `<open/>` with the stream header's attributes but its namespace declarations.
    private static func openMessage(_ tag: StartTag) -> String {
        var out = "<open xmlns='\(namespace)'"
        for attribute in tag.attributes where attribute.name != "xmlns" && !attribute.name.hasPrefix("xmlns:") {
            out += " " + attribute.raw
        }
        return out + "/>"
    }

    /// The element with the namespace declarations a stand-alone message needs.
    private static func declaringNamespaces(_ tag: StartTag, _ rest: String) -> String {
        let names = Set(tag.attributes.map(\.name))
        var declaration = ""
        if tag.name.hasPrefix("stream:") {
            if !names.contains("xmlns:stream") { declaration = " xmlns:stream='\(streamsNamespace)'" }
        } else if !tag.name.contains(":") && !names.contains("xmlns") {
            declaration = " xmlns='\(XMPPNamespace.client)'"
        }
        return "<" + tag.name + declaration + tag.afterName + rest
    }

    /// The index just past the element that `tag` opens.
    private static func elementEnd(_ bytes: [UInt8], after tag: StartTag) -> Int {
        if tag.isEmpty { return tag.end }
        var depth = 1
        var i = tag.end
        while depth > 0 {
            guard let open = bytes[i...].firstIndex(of: UInt8(ascii: "<")) else { return bytes.count }
            if starts(bytes, at: open, with: "</") {
                depth -= 1
                i = (bytes[open...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 }) ?? bytes.count
            } else if let inner = StartTag(bytes, at: open) {
                if !inner.isEmpty { depth += 1 }
                i = inner.end
            } else {
                return bytes.count
            }
        }
        return i
    }

    // MARK: client to server

    /// Parser input for one client message: the message inside a stream start and
    /// end that declare `jabber:client` and the `stream:` prefix, without the XML
    /// declaration some clients put in front. A message that is not exactly whole
    /// elements leaves this document ill-formed, so the parser reports it.
    package static func document(forMessage message: [UInt8]) -> [UInt8] {
        var start = 0
        while start < message.count && isSpace(message[start]) { start += 1 }
        if starts(message, at: start, with: "<?xml"), let end = find(message, "?>", from: start) { start = end + 2 }
        return documentStart + message[start...] + documentEnd
    }

    /// The stream header a client's `<open/>` stands for: its attributes (`to`,
    /// `version`, `xml:lang`) on a stream whose stanzas are `jabber:client` by
    /// definition (RFC 7395 §3.3).
    package static func header(fromOpen element: XMPPElement) -> XMPPStreamHeader {
        var attributes: [String: String] = [:]
        for attribute in element.attributes { attributes[attribute.name] = attribute.value }
        return XMPPStreamHeader(name: "stream", namespace: XMPPNamespace.streams, attributes: attributes,
                                defaultNamespace: XMPPNamespace.client)
    }

    // MARK: scanning the server's own output

    /// A start tag: `<name attributes…>` or `<name …/>`, quoted values skipped whole.
    private struct StartTag {
        struct Attribute { var name: String; var raw: String }
        var name: String
        var attributes: [Attribute] = []
        /// Everything from the end of the name to the tag's `>`, inclusive.
        var afterName: String
        var isEmpty: Bool
        /// The index just past the tag's `>`.
        var end: Int

        init?(_ bytes: [UInt8], at start: Int) {
            var i = start + 1
            let nameStart = i
            while i < bytes.count && !isSpace(bytes[i]) && bytes[i] != UInt8(ascii: ">") && bytes[i] != UInt8(ascii: "/") { i += 1 }
            guard i > nameStart, i < bytes.count else { return nil }
            name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
            let nameEnd = i
            while true {
                while i < bytes.count && isSpace(bytes[i]) { i += 1 }
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ">") { isEmpty = false; break }
                if bytes[i] == UInt8(ascii: "/") {
                    guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { return nil }
                    isEmpty = true
                    i += 1
                    break
                }
                let attributeStart = i
                while i < bytes.count && bytes[i] != UInt8(ascii: "=") && !isSpace(bytes[i]) { i += 1 }
                let attributeName = String(decoding: bytes[attributeStart..<i], as: UTF8.self)
                while i < bytes.count && (isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "=")) { i += 1 }
                guard i < bytes.count, bytes[i] == UInt8(ascii: "'") || bytes[i] == UInt8(ascii: "\"") else { return nil }
                guard let close = bytes[(i + 1)...].firstIndex(of: bytes[i]) else { return nil }
                i = close + 1
                attributes.append(Attribute(name: attributeName, raw: String(decoding: bytes[attributeStart..<i], as: UTF8.self)))
            }
            end = i + 1
            afterName = String(decoding: bytes[nameEnd..<end], as: UTF8.self)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return index + p.count <= bytes.count && bytes[index..<(index + p.count)].elementsEqual(p)
    }

    private static func find(_ bytes: [UInt8], _ needle: String, from start: Int) -> Int? {
        let n = Array(needle.utf8)
        var i = start
        while i + n.count <= bytes.count {
            if bytes[i..<(i + n.count)].elementsEqual(n) { return i }
            i += 1
        }
        return nil
    }
}
