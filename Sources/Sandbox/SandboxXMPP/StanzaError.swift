import SandboxXML

/// A stanza error the server answers with (RFC 6120 §8.3): who should act, what went wrong,
/// and optionally why in words.
struct StanzaError: Equatable {
    /// The defined conditions the server uses (RFC 6120 §8.3.3).
    enum Condition: DefinedCondition, Equatable {
        case conflict
        case badRequest, forbidden, internalServerError, itemNotFound, jidMalformed, notAcceptable, registrationRequired,
             resourceConstraint, serviceUnavailable, unexpectedRequest

        /// `<condition xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>`, as it stands in an error
        /// (and in XEP-0198's `<failed/>`).
        var element: String { "<\(rawValue) xmlns='\(XMPPNamespace.stanzaErrors)'/>" }
    }

    /// Who should act on it (RFC 6120 §8.3.2).
    enum ErrorType: String, Equatable {
        case auth, cancel, modify, wait
    }

    var condition: Condition
    var type: ErrorType = .cancel
    var text: String?
    /// The pre-RFC numeric `code` attribute (XEP-0086), for the few errors whose readers still
    /// compare it: QuickBlox's SDKs read a failed group join's code from it.
    var legacyCode: Int?

    /// `<error [code='…'] type='…'><condition …/><text …>…</text></error>`.
    var xml: String {
        var out = "<error" + (legacyCode.map { " code='\($0)'" } ?? "") + " type='\(type.rawValue)'>\(condition.element)"
        if let text { out += "<text xmlns='\(XMPPNamespace.stanzaErrors)'>\(XMLEscaping.text(text))</text>" }
        return out + "</error>"
    }
}
