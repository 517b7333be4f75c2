import SandboxXML

/// Stream-level errors the server sends (RFC 6120 §4.9.3).
enum XMPPStreamError: DefinedCondition, Equatable {
    case badFormat, conflict, connectionTimeout, hostUnknown, internalServerError, invalidNamespace, notAuthorized,
         notWellFormed, policyViolation, restrictedXML, systemShutdown, unsupportedStanzaType

    init(_ failure: XMLStreamFailure) {
        switch failure {
        case .notWellFormed: self = .notWellFormed
        case .restrictedXML: self = .restrictedXML
        case .tooLarge, .tooDeep: self = .policyViolation
        }
    }
}

extension String {
    /// Without leading and trailing whitespace (XML character data often carries line breaks).
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
