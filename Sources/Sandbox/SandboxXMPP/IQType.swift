import SandboxXML

/// The `type` of an IQ (RFC 6120 §8.2.3).
enum IQType: String, Equatable {
    case get, set, result, error

    /// `iq`'s type; nil when it has none or another.
    init?(of iq: XMPPElement) {
        guard let type = iq[attribute: "type"].flatMap(IQType.init(rawValue:)) else { return nil }
        self = type
    }
}
