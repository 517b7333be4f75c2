internal import CStrophe
#if canImport(Glibc)
import Glibc
#endif

/// The bridge from libstrophe's stanza trees to `StanzaElement`: the only file that
/// reads an `xmpp_stanza_t`. Everything after it (routing, parsing) is plain Swift.
extension StanzaElement {
    /// Copies a libstrophe stanza and its children. Text nodes via
    /// `xmpp_stanza_get_text_ptr`: no copy to free.
    init(stropheStanza stanza: OpaquePointer) {
        self.init(xmpp_stanza_get_name(stanza).map { String(cString: $0) } ?? "")
        namespace = xmpp_stanza_get_ns(stanza).map { String(cString: $0) }
        let count = Int(xmpp_stanza_get_attribute_count(stanza))
        if count > 0 {
            // On the stack, and the attributes array sized once: a message has a few, and
            // each heard message's elements were a tenth of listen's time.
            withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: count * 2) { pairs in
                let filled = min(Int(xmpp_stanza_get_attributes(stanza, pairs.baseAddress, Int32(count * 2))), count * 2)
                attributes.reserveCapacity(count)
                var i = 0
                while i + 1 < filled {
                    if let key = pairs[i], let value = pairs[i + 1], strcmp(key, "xmlns") != 0 {
                        attributes.append(.init(String(cString: key), String(cString: value)))
                    }
                    i += 2
                }
            }
        }
        var child = xmpp_stanza_get_children(stanza)
        while let current = child {
            if xmpp_stanza_is_text(current) != 0 {
                if let text = xmpp_stanza_get_text_ptr(current) {
                    // Most elements hold one text node: taken as it is, not appended to "".
                    if self.text.isEmpty { self.text = String(cString: text) } else { self.text += String(cString: text) }
                }
            } else if xmpp_stanza_is_tag(current) != 0 {
                children.append(StanzaElement(stropheStanza: current))
            }
            child = xmpp_stanza_get_next(current)
        }
    }

    /// Parses one XML element with libstrophe's own parser (`xmpp_stanza_new_from_string`)
    /// and copies it like an incoming stanza: lets tests feed real XML text through
    /// the same bridge without a socket. Nil when libstrophe cannot parse it.
    package init?(parsingWithStrophe xml: String) {
        _ = stropheLibraryInitialized
        precondition(cstrophe_load() == 0, "cannot load libstrophe: \(String(cString: cstrophe_load_error()))")
        guard let ctx = xmpp_ctx_new(nil, nil) else { preconditionFailure("xmpp_ctx_new failed (out of memory)") }
        defer { xmpp_ctx_free(ctx) }
        guard let stanza = xmpp_stanza_new_from_string(ctx, xml) else { return nil }
        defer { xmpp_stanza_release(stanza) }
        self.init(stropheStanza: stanza)
    }
}
