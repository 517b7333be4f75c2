internal import CExpat
#if canImport(Glibc)
import Glibc
#endif

/// The opening `<stream:stream>` tag as the client sent it.
package struct XMPPStreamHeader: Equatable {
    package var name: String
    package var namespace: String
    package var attributes: [String: String]
    /// The `xmlns='…'` declared on the stream tag (nil when absent).
    package var defaultNamespace: String?

    package init(name: String, namespace: String, attributes: [String: String], defaultNamespace: String?) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.defaultNamespace = defaultNamespace
    }

    package var isStreamTag: Bool { name == "stream" && namespace == XMPPNamespace.streams }
}

package enum XMLStreamEvent: Equatable {
    case streamOpened(XMPPStreamHeader)
    /// A complete child of the stream element (a stanza or a nonza).
    case element(XMPPElement)
    case streamClosed
}

/// Why the parser gave up on a stream; each maps to one stream error.
package enum XMLStreamFailure: Equatable {
    case notWellFormed        // expat's own errors, text at stream level
    case restrictedXML        // DOCTYPE, entity declarations, comments, processing instructions
    case tooLarge             // one element over the byte limit
    case tooDeep              // nesting over the depth limit
}

package enum XMLFeedResult: Equatable {
    case consumedAll
    /// The handler asked to stop after an event; `consumed` bytes of this feed
    /// belong to the old stream, the rest (if any) to whatever comes next.
    case suspended(consumed: Int)
    case failed(XMLStreamFailure)
}

/// An expat parser for one XML stream (namespace-aware; never expands
/// entities: any DOCTYPE is refused). `reset()` starts a new stream, as XMPP
/// requires after STARTTLS and SASL success. Not reentrant: call `feed` and
/// `reset` only from outside `handler`.
package final class XMLStreamParser {
    /// Called for each event; return false to suspend parsing right after it.
    package var handler: (XMLStreamEvent) -> Bool = { _ in true }

    private let maxElementBytes: Int
    private let maxDepth: Int
    private var parser: OpaquePointer   // XML_Parser
    private var stack: [XMPPElement] = []
    private var depth = 0
    private var pendingDeclarations: [(prefix: String?, uri: String)] = []
    private var bytesFed: Int64 = 0
    private var lastEventEnd: Int64 = 0
    private var elementStart: Int64 = 0
    private var failure: XMLStreamFailure?
    /// The first namespaces the stream used (bounded: a client chooses them), see `namespace(_:)`.
    private var knownNamespaces: [String] = []

    /// Expat joins namespace, local name and prefix with this; U+0001 cannot occur in XML 1.0.
    private static let separator: CChar = 0x01

    package init(maxElementBytes: Int, maxDepth: Int) {
        self.maxElementBytes = maxElementBytes
        self.maxDepth = maxDepth
        parser = Self.makeParser()
        installHandlers()
    }

    deinit { XML_ParserFree(parser) }

    /// A fresh parser for a restarted stream.
    package func reset() {
        XML_ParserFree(parser)
        parser = Self.makeParser()
        stack = []
        depth = 0
        pendingDeclarations = []
        bytesFed = 0
        lastEventEnd = 0
        elementStart = 0
        failure = nil
        installHandlers()
    }

    package func feed(_ bytes: UnsafeRawBufferPointer) -> XMLFeedResult {
        guard let base = bytes.baseAddress else { return .consumedAll }
        var offset = 0
        if bytesFed == 0 {
            // Whitespace a client sends after the element that ended the previous
            // stream (`</auth>\n`) would put the next XML declaration out of place.
            while offset < bytes.count, [0x20, 0x09, 0x0d, 0x0a].contains(bytes[offset]) { offset += 1 }
        }
        let fedBefore = bytesFed - Int64(offset)
        // Small slices so the size limit is checked before expat buffers much.
        while offset < bytes.count {
            let n = min(8192, bytes.count - offset)
            let status = XML_Parse(parser, base.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(n), 0)
            bytesFed += Int64(n)
            offset += n
            switch status {
            case XML_STATUS_SUSPENDED:
                return .suspended(consumed: Int(max(0, min(Int64(bytes.count), lastEventEnd - fedBefore))))
            case XML_STATUS_ERROR:
                return .failed(failure ?? .notWellFormed)
            default:
                break
            }
            // Bytes since the current stanza began (or since the last complete event,
            // e.g. a huge unterminated tag) must stay under the limit.
            let anchor = depth >= 2 ? elementStart : lastEventEnd
            if bytesFed - anchor > Int64(maxElementBytes) { return .failed(.tooLarge) }
        }
        return .consumedAll
    }

    // MARK: expat plumbing

    private static func makeParser() -> OpaquePointer {
        guard let p = XML_ParserCreateNS("UTF-8", separator) else { preconditionFailure("XML_ParserCreateNS: out of memory") }
        XML_SetReturnNSTriplet(p, 1)
        return p
    }

    private func installHandlers() {
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { ud, name, atts in
            XMLStreamParser.from(ud).startElement(name, atts)
        }, { ud, name in
            XMLStreamParser.from(ud).endElement(name)
        })
        XML_SetCharacterDataHandler(parser) { ud, s, len in
            XMLStreamParser.from(ud).characters(s, Int(len))
        }
        XML_SetStartNamespaceDeclHandler(parser) { ud, prefix, uri in
            // Only the stream tag's are read (its default namespace); a stanza's are resolved by expat.
            let parser = XMLStreamParser.from(ud)
            guard parser.depth == 0 else { return }
            parser.pendingDeclarations.append((prefix.map { String(cString: $0) }, uri.map { String(cString: $0) } ?? ""))
        }
        // Restricted XML (RFC 6120 §11.1): refuse rather than expand anything.
        XML_SetStartDoctypeDeclHandler(parser) { ud, _, _, _, _ in XMLStreamParser.from(ud).fail(.restrictedXML) }
        XML_SetEntityDeclHandler(parser) { ud, _, _, _, _, _, _, _, _ in XMLStreamParser.from(ud).fail(.restrictedXML) }
        XML_SetCommentHandler(parser) { ud, _ in XMLStreamParser.from(ud).fail(.restrictedXML) }
        XML_SetProcessingInstructionHandler(parser) { ud, _, _ in XMLStreamParser.from(ud).fail(.restrictedXML) }
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> XMLStreamParser {
        Unmanaged<XMLStreamParser>.fromOpaque(userData!).takeUnretainedValue()
    }

    private func fail(_ reason: XMLStreamFailure) {
        if failure == nil { failure = reason }
        XML_StopParser(parser, 0)
    }

    private func noteEventEnd() {
        let index = XML_GetCurrentByteIndex(parser)
        if index >= 0 { lastEventEnd = max(lastEventEnd, Int64(index) + Int64(XML_GetCurrentByteCount(parser))) }
    }

    private func deliver(_ event: XMLStreamEvent) {
        if !handler(event) { XML_StopParser(parser, 1) }
    }

    /// "uri\u{1}local\u{1}prefix" → (uri, local, prefix), read in place (no array of pieces:
    /// every element and attribute of every stanza comes through here).
    private func split(_ raw: UnsafePointer<CChar>) -> (namespace: String, local: String, prefix: String?) {
        let length = strlen(raw)
        return raw.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            let all = UnsafeBufferPointer(start: bytes, count: length)
            guard let first = all.firstIndex(of: 0x01) else { return ("", String(decoding: all, as: UTF8.self), nil) }
            let namespace = self.namespace(UnsafeBufferPointer(rebasing: all[..<first]))
            let rest = all[(first + 1)...]
            guard let second = rest.firstIndex(of: 0x01) else {
                return (namespace, String(decoding: UnsafeBufferPointer(rebasing: rest), as: UTF8.self), nil)
            }
            return (namespace, String(decoding: UnsafeBufferPointer(rebasing: rest[..<second]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: all[(second + 1)...]), as: UTF8.self))
        }
    }

    /// A namespace this stream used before is that same String again: most are longer than a
    /// small string, so each element would otherwise allocate (and later free) its own copy.
    private func namespace(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        for known in knownNamespaces where known.utf8.count == bytes.count {
            var known = known
            if known.withUTF8({ memcmp($0.baseAddress!, base, bytes.count) == 0 }) { return known }
        }
        let namespace = String(decoding: bytes, as: UTF8.self)
        if knownNamespaces.count < 16 { knownNamespaces.append(namespace) }
        return namespace
    }

    private func startElement(_ rawName: UnsafePointer<CChar>?, _ atts: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        guard failure == nil, let rawName else { return }
        let start = Int64(XML_GetCurrentByteIndex(parser))
        noteEventEnd()
        depth += 1
        if depth > maxDepth { return fail(.tooDeep) }
        let (namespace, local, _) = split(rawName)
        var attributes: [XMPPElement.Attribute] = []
        // Room for a stanza's usual few at once (growing 1, 2, 4 allocated three times).
        if let atts, atts[0] != nil { attributes.reserveCapacity(4) }
        var extraDeclarations: [XMPPElement.Attribute] = []
        if let atts {
            var i = 0
            while let key = atts[i], let value = atts[i + 1] {
                let (ns, name, prefix) = split(key)
                let v = String(cString: value)
                if ns == XMPPNamespace.xml {
                    attributes.append(.init(name: "xml:\(name)", value: v))
                } else if !ns.isEmpty {
                    let p = prefix ?? "ns\(i)"
                    attributes.append(.init(name: "\(p):\(name)", value: v))
                    extraDeclarations.append(.init(name: "xmlns:\(p)", value: ns))
                } else {
                    attributes.append(.init(name: name, value: v))
                }
                i += 2
            }
        }
        if depth == 1 {
            let declarations = pendingDeclarations
            pendingDeclarations = []
            var map: [String: String] = [:]
            for a in attributes { map[a.name] = a.value }
            let header = XMPPStreamHeader(name: local, namespace: namespace, attributes: map,
                                          defaultNamespace: declarations.first { $0.prefix == nil }?.uri)
            deliver(.streamOpened(header))
            return
        }
        if depth == 2 { elementStart = start }
        if !extraDeclarations.isEmpty { attributes += extraDeclarations }
        stack.append(XMPPElement(name: local, namespace: namespace, attributes: attributes))
    }

    private func endElement(_ rawName: UnsafePointer<CChar>?) {
        guard failure == nil else { return }
        noteEventEnd()
        depth -= 1
        if depth == 0 { return deliver(.streamClosed) }
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            // A whole stanza can arrive within one slice: check it here too.
            if lastEventEnd - elementStart > Int64(maxElementBytes) { return fail(.tooLarge) }
            deliver(.element(finished))
        } else {
            Self.append(.element(finished), to: &stack[stack.count - 1])
        }
    }

    /// A child, with room for a few more the first time (a stanza's elements have a handful).
    private static func append(_ node: XMPPElement.Node, to element: inout XMPPElement) {
        if element.children.isEmpty { element.children.reserveCapacity(4) }
        element.children.append(node)
    }

    private func characters(_ s: UnsafePointer<CChar>?, _ length: Int) {
        guard failure == nil, let s, length > 0 else { return }
        noteEventEnd()
        let text = String(decoding: UnsafeRawBufferPointer(start: s, count: length), as: UTF8.self)
        guard !stack.isEmpty else {
            // Between stanzas only whitespace (keep-alives) is allowed.
            if text.contains(where: { !$0.isWhitespace }) { fail(.notWellFormed) }
            return
        }
        if lastEventEnd - elementStart > Int64(maxElementBytes) { return fail(.tooLarge) }
        let top = stack.count - 1
        if case .text(let previous)? = stack[top].children.last {
            stack[top].children[stack[top].children.count - 1] = .text(previous + text)
        } else {
            Self.append(.text(text), to: &stack[top])
        }
    }
}

@available(*, unavailable) extension XMLStreamParser: Sendable {}
