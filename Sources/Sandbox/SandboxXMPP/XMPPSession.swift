#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SandboxXML

/// One client stream's protocol state, as a value: events in, actions out.
/// No I/O here, so every path is tested without a socket; `XMPPClientConnection` performs the actions.
struct XMPPSession {
    /// Why SASL failed (RFC 6120 §6.5).
    enum SASLFailure: String, Equatable {
        case aborted
        case incorrectEncoding = "incorrect-encoding"
        case invalidMechanism = "invalid-mechanism"
        case malformedRequest = "malformed-request"
        case notAuthorized = "not-authorized"
        case temporaryAuthFailure = "temporary-auth-failure"
    }

    enum Phase: Equatable {
        /// Waiting for the client's `<stream:stream>` (at start, after TLS, after SASL).
        case awaitingStream
        /// Features sent before authentication: STARTTLS or SASL next.
        case negotiating
        /// `<auth mechanism='PLAIN'/>` came without an initial response; a `<response>` is due.
        case awaitingSASLResponse
        /// Credentials handed to the authenticator; `.authenticationChecked` is due.
        case authenticating(userId: Int)
        /// `<proceed/>` sent; the TLS handshake runs.
        case securing
        /// Authenticated, post-auth features sent; resource binding is due.
        case binding
        /// A resource is bound: stanzas flow.
        case established
        case closed
    }

    /// What a resumable session leaves for the stream that resumes it (XEP-0198 §5).
    struct Resumption: Equatable {
        var id: String
        var resource: String
        var carbonsEnabled: Bool
        /// Inbound stanzas handled: the `h` of `<resumed/>`.
        var inboundStanzas: UInt32
    }

    enum Event: Equatable {
        case streamOpened(XMPPStreamHeader, streamId: String)
        case element(XMPPElement)
        case streamClosed
        case tlsEstablished
        case authenticationChecked(userId: Int, accepted: Bool)
        /// Too many wrong passwords for this user lately: `temporary-auth-failure` (RFC 6120 §6.5.12).
        case authenticationThrottled(userId: Int)
        case resourceBound(String, iqId: String)
        /// The answer to `.resume`: the session taken over, or nil (unknown, expired, another user's).
        case resumeChecked(Resumption?, previd: String)
        /// The stream must end with this error (parser failure, timeout, shutdown, conflict).
        case fatal(XMPPStreamError)
    }

    enum Action: Equatable {
        case send(String)
        /// Wrap the connection in TLS and reset the XML parser.
        case startTLS
        /// Reset the XML parser: the client opens a new stream next.
        case restartStream
        /// Ask the authenticator; answer with `.authenticationChecked`.
        case authenticate(userId: Int, secret: String)
        /// Bind a resource (nil: generate one); answer with `.resourceBound`.
        case bindResource(requested: String?, iqId: String)
        /// A message, a presence or an IQ to the MUC service, for the router (after binding),
        /// with the kind the session found it to be.
        case route(XMPPElement, StanzaKind)
        /// Stream management is on and this session may be resumed by its id (XEP-0198 §5).
        case resumptionEnabled(id: String)
        /// The client acknowledged (`<a h/>`) the stanzas sent to it up to `h`.
        case acknowledged(UInt32)
        /// `<resume/>`: find the session `previd` of this user and answer `.resumeChecked`;
        /// `h` is what the client received of it.
        case resume(previd: String, h: UInt32)
        /// Flush what was sent, then close.
        case close
    }

    let domain: String
    let applicationId: Int
    let tlsAvailable: Bool
    let maxFailedAuthentications: Int
    /// Seconds a resumable session waits for its client after the connection drops; nil: no resumption.
    let resumptionTimeout: Int?
    /// The id this session would be resumed by (unguessable; made by the connection).
    let resumptionCandidate: String

    private(set) var phase: Phase = .awaitingStream
    private(set) var isSecure = false
    private(set) var userId: Int? { didSet { fullJID = Self.fullJID(userId, applicationId, domain, resource) } }
    private(set) var resource: String? { didSet { fullJID = Self.fullJID(userId, applicationId, domain, resource) } }
    /// Kept, not made on each use: every routed stanza is stamped with its sender's.
    private(set) var fullJID: String?
    private(set) var streamManagementEnabled = false
    /// Inbound stanzas handled since `<enable/>`, modulo 2^32 (XEP-0198 `h`).
    private(set) var inboundStanzas: UInt32 = 0
    private(set) var failedAuthentications = 0
    /// XEP-0280: this resource wants copies of what the user's other resources send.
    private(set) var carbonsEnabled = false
    /// XEP-0198 §5: the id it may be resumed by, once the client asked for resumption.
    private(set) var resumptionId: String?
    private var headerSent = false

    init(domain: String, applicationId: Int, tlsAvailable: Bool = true, maxFailedAuthentications: Int = 3,
         resumptionTimeout: Int? = nil, resumptionCandidate: String = "") {
        self.domain = domain.lowercased()
        self.applicationId = applicationId
        self.tlsAvailable = tlsAvailable
        self.maxFailedAuthentications = maxFailedAuthentications
        self.resumptionTimeout = resumptionCandidate.isEmpty ? nil : resumptionTimeout
        self.resumptionCandidate = resumptionCandidate
    }

    /// What a stream resuming this session takes over; nil when it cannot be resumed.
    var resumption: Resumption? {
        guard let resumptionId, let resource, phase == .established else { return nil }
        return Resumption(id: resumptionId, resource: resource, carbonsEnabled: carbonsEnabled, inboundStanzas: inboundStanzas)
    }

    var bareJID: String? { userId.map { "\($0)-\(applicationId)@\(domain)" } }
    private static func fullJID(_ userId: Int?, _ applicationId: Int, _ domain: String, _ resource: String?) -> String? {
        guard let userId, let resource else { return nil }
        return "\(userId)-\(applicationId)@\(domain)/\(resource)"
    }
    var isAuthenticated: Bool { userId != nil }

    mutating func handle(_ event: Event) -> [Action] {
        if phase == .closed { return [] }
        switch event {
        case .streamOpened(let header, let streamId): return streamOpened(header, streamId: streamId)
        case .element(let element): return received(element)
        case .streamClosed:
            phase = .closed
            return [.send(headerSent ? "</stream:stream>" : openingTag(streamId: "closed") + "</stream:stream>"), .close]
        case .tlsEstablished:
            if phase == .securing {
                isSecure = true
                phase = .awaitingStream
                return []
            }
            // libevent may report the handshake after the first decrypted bytes.
            return isSecure ? [] : fatal(.policyViolation)
        case .authenticationChecked(let id, let accepted):
            guard phase == .authenticating(userId: id) else { return fatal(.internalServerError) }
            if accepted {
                userId = id
                phase = .awaitingStream
                headerSent = false
                return [.send("<success xmlns='\(XMPPNamespace.sasl)'/>"), .restartStream]
            }
            return saslFailure(.notAuthorized)
        case .authenticationThrottled(let id):
            guard phase == .authenticating(userId: id) else { return fatal(.internalServerError) }
            return saslFailure(.temporaryAuthFailure)
        case .resourceBound(let bound, let iqId):
            guard phase == .binding else { return fatal(.internalServerError) }
            resource = bound
            phase = .established
            return [.send("<iq type='result' id='\(XMLEscaping.attribute(iqId))'><bind xmlns='\(XMPPNamespace.bind)'><jid>\(XMLEscaping.text(fullJID ?? ""))</jid></bind></iq>")]
        case .resumeChecked(let previous, let previd):
            guard phase == .binding else { return fatal(.internalServerError) }
            guard let previous else {
                // The client goes on to bind a new session (XEP-0198 §5, Example 10).
                return [.send("<failed xmlns='\(XMPPNamespace.streamManagement)'>\(StanzaError.Condition.itemNotFound.element)</failed>")]
            }
            resource = previous.resource
            carbonsEnabled = previous.carbonsEnabled
            inboundStanzas = previous.inboundStanzas
            streamManagementEnabled = true
            resumptionId = previous.id
            phase = .established
            return [.send("<resumed xmlns='\(XMPPNamespace.streamManagement)' previd='\(XMLEscaping.attribute(previd))' h='\(inboundStanzas)'/>")]
        case .fatal(let error): return fatal(error)
        }
    }

    // MARK: stream open and features

    private func openingTag(streamId: String) -> String {
        "<?xml version='1.0'?><stream:stream xmlns='\(XMPPNamespace.client)' xmlns:stream='\(XMPPNamespace.streams)' id='\(XMLEscaping.attribute(streamId))' from='\(XMLEscaping.attribute(domain))' version='1.0' xml:lang='en'>"
    }

    private mutating func streamOpened(_ header: XMPPStreamHeader, streamId: String) -> [Action] {
        if phase == .securing {
            // Decrypted bytes prove the handshake finished, even if its event is still queued.
            isSecure = true
            phase = .awaitingStream
        }
        guard phase == .awaitingStream else { return fatal(.policyViolation) }
        let opening = openingTag(streamId: streamId)
        headerSent = true
        guard header.isStreamTag, header.defaultNamespace == XMPPNamespace.client else {
            return [.send(opening)] + fatal(.invalidNamespace)
        }
        if let to = header.attributes["to"], to.lowercased() != domain {
            return [.send(opening)] + fatal(.hostUnknown)
        }
        var features = "<stream:features>"
        if isAuthenticated {
            features += "<bind xmlns='\(XMPPNamespace.bind)'/><session xmlns='\(XMPPNamespace.session)'><optional/></session><sm xmlns='\(XMPPNamespace.streamManagement)'/>"
            phase = .binding
        } else {
            if tlsAvailable && !isSecure { features += "<starttls xmlns='\(XMPPNamespace.tls)'/>" }
            features += "<mechanisms xmlns='\(XMPPNamespace.sasl)'><mechanism>PLAIN</mechanism></mechanisms>"
            phase = .negotiating
        }
        features += "</stream:features>"
        return [.send(opening + features)]
    }

    private mutating func fatal(_ error: XMPPStreamError) -> [Action] {
        let prefix = headerSent ? "" : openingTag(streamId: "error")
        headerSent = true
        phase = .closed
        return [.send(prefix + "<stream:error><\(error.rawValue) xmlns='\(XMPPNamespace.streamErrors)'/></stream:error></stream:stream>"), .close]
    }

    // MARK: elements

    private mutating func received(_ element: XMPPElement) -> [Action] {
        let kind = StanzaKind(element)
        let isStanza = kind != nil
        if isStanza && streamManagementEnabled { inboundStanzas &+= 1 }
        switch phase {
        case .negotiating:
            return negotiate(element, isStanza: isStanza)
        case .awaitingSASLResponse:
            if element.name == "response" && element.namespace == XMPPNamespace.sasl { return plain(element.text) }
            if element.name == "abort" && element.namespace == XMPPNamespace.sasl { phase = .negotiating; return saslFailure(.aborted, counts: false) }
            return fatal(isStanza ? .notAuthorized : .unsupportedStanzaType)
        case .binding:
            if kind == .iq, IQType(of: element) == .set,
               let bind = element.child("bind", namespace: XMPPNamespace.bind) {
                let requested = bind.child("resource")?.text.trimmedWhitespace
                return [.bindResource(requested: (requested?.isEmpty ?? true) ? nil : requested, iqId: element[attribute: "id"] ?? "")]
            }
            if element.namespace == XMPPNamespace.streamManagement { return streamManagement(element) }
            if kind == .iq, element.child("session", namespace: XMPPNamespace.session) != nil {
                return [.send(result(for: element))]
            }
            return fatal(isStanza ? .notAuthorized : .unsupportedStanzaType)
        case .established:
            if element.namespace == XMPPNamespace.streamManagement { return streamManagement(element) }
            guard let kind else { return fatal(.unsupportedStanzaType) }
            if kind == .iq { return iq(element) }
            return [.route(element, kind)]
        case .awaitingStream, .authenticating, .securing, .closed:
            // Nothing may arrive here before the next stream header or handshake.
            return fatal(.policyViolation)
        }
    }

    private mutating func negotiate(_ element: XMPPElement, isStanza: Bool) -> [Action] {
        switch (element.namespace, element.name) {
        case (XMPPNamespace.tls, "starttls"):
            guard tlsAvailable && !isSecure else {
                phase = .closed
                return [.send("<failure xmlns='\(XMPPNamespace.tls)'/></stream:stream>"), .close]
            }
            phase = .securing
            headerSent = false
            return [.send("<proceed xmlns='\(XMPPNamespace.tls)'/>"), .startTLS]
        case (XMPPNamespace.sasl, "auth"):
            guard element[attribute: "mechanism"] == "PLAIN" else { return saslFailure(.invalidMechanism) }
            let initial = element.text.trimmedWhitespace
            if initial.isEmpty {
                phase = .awaitingSASLResponse
                return [.send("<challenge xmlns='\(XMPPNamespace.sasl)'/>")]
            }
            return plain(initial)
        case (XMPPNamespace.sasl, "abort"):
            return saslFailure(.aborted, counts: false)
        default:
            return fatal(isStanza ? .notAuthorized : .unsupportedStanzaType)
        }
    }

    /// SASL PLAIN (RFC 4616): base64 of authzid NUL authcid NUL password, where
    /// authcid is `{userId}-{appId}` or `{userId}-{appId}@{domain}`.
    private mutating func plain(_ base64: String) -> [Action] {
        let encoded = base64 == "=" ? "" : base64
        guard let data = Data(base64Encoded: encoded) else { return saslFailure(.incorrectEncoding) }
        let fields = data.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return saslFailure(.malformedRequest) }
        let authzid = String(decoding: fields[0], as: UTF8.self)
        let authcid = String(decoding: fields[1], as: UTF8.self)
        let secret = String(decoding: fields[2], as: UTF8.self)
        guard let id = userIdentifier(authcid), authzid.isEmpty || userIdentifier(authzid) == id, !secret.isEmpty else {
            return saslFailure(.notAuthorized)
        }
        phase = .authenticating(userId: id)
        return [.authenticate(userId: id, secret: secret)]
    }

    /// The user id in `{userId}-{appId}[@{domain}][/resource]`, when the app and domain are ours.
    func userIdentifier(_ identity: String) -> Int? {
        var local = Substring(identity)
        if let slash = local.firstIndex(of: "/") { local = local[..<slash] }
        if let at = local.firstIndex(of: "@") {
            guard local[local.index(after: at)...].lowercased() == domain else { return nil }
            local = local[..<at]
        }
        let parts = local.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]), id > 0, Int(parts[1]) == applicationId else { return nil }
        return id
    }

    private mutating func saslFailure(_ failure: SASLFailure, counts: Bool = true) -> [Action] {
        phase = .negotiating
        let reply = Action.send("<failure xmlns='\(XMPPNamespace.sasl)'><\(failure.rawValue)/></failure>")
        if counts {
            failedAuthentications += 1
            if failedAuthentications >= maxFailedAuthentications { return [reply] + fatal(.notAuthorized) }
        }
        return [reply]
    }

    // MARK: stream management (XEP-0198)

    private mutating func streamManagement(_ element: XMPPElement) -> [Action] {
        let sm = XMPPNamespace.streamManagement
        switch element.name {
        case "enable":
            guard phase == .established, !streamManagementEnabled else {
                return [.send("<failed xmlns='\(sm)'>\(StanzaError.Condition.unexpectedRequest.element)</failed>")]
            }
            streamManagementEnabled = true
            inboundStanzas = 0
            let wantsResumption = ["true", "1"].contains(element[attribute: "resume"] ?? "")
            guard wantsResumption, let timeout = resumptionTimeout else { return [.send("<enabled xmlns='\(sm)'/>")] }
            resumptionId = resumptionCandidate
            return [.send("<enabled xmlns='\(sm)' id='\(XMLEscaping.attribute(resumptionCandidate))' resume='true' max='\(timeout)'/>"),
                    .resumptionEnabled(id: resumptionCandidate)]
        case "r":
            guard streamManagementEnabled else { return [] }
            return [.send("<a xmlns='\(sm)' h='\(inboundStanzas)'/>")]
        case "a":
            guard streamManagementEnabled, let h = element[attribute: "h"].flatMap({ UInt32($0) }) else { return [] }
            return resumptionId == nil ? [] : [.acknowledged(h)]
        case "resume":
            // Only in place of binding, after authentication (XEP-0198 §5).
            guard phase == .binding, resource == nil else {
                return [.send("<failed xmlns='\(sm)'>\(StanzaError.Condition.unexpectedRequest.element)</failed>")]
            }
            guard let previd = element[attribute: "previd"], !previd.isEmpty,
                  let h = element[attribute: "h"].flatMap({ UInt32($0) }) else {
                return [.send("<failed xmlns='\(sm)'>\(StanzaError.Condition.badRequest.element)</failed>")]
            }
            return [.resume(previd: previd, h: h)]
        default:
            return fatal(.unsupportedStanzaType)
        }
    }

    // MARK: iq

    private func result(for iq: XMPPElement, payload: String = "") -> String {
        var reply = "<iq type='result' id='\(XMLEscaping.attribute(iq[attribute: "id"] ?? ""))'"
        if let to = iq[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(to))'" }
        if let me = fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        return payload.isEmpty ? reply + "/>" : reply + ">" + payload + "</iq>"
    }

    private func error(for iq: XMPPElement, _ error: StanzaError) -> String {
        var reply = "<iq type='error' id='\(XMLEscaping.attribute(iq[attribute: "id"] ?? ""))'"
        if let to = iq[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(to))'" }
        if let me = fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        return reply + ">" + error.xml + "</iq>"
    }

    /// Is `to` (absent, the domain, or the user's own bare or full JID) handled by the server itself?
    private func addressesServerOrSelf(_ to: String?) -> Bool {
        guard let to = to?.lowercased() else { return true }
        if to == domain { return true }
        guard let bare = bareJID else { return false }
        return to == bare || to.hasPrefix(bare + "/")
    }

    private mutating func iq(_ iq: XMPPElement) -> [Action] {
        // Results and errors addressed to the server (and IQs of no type) are dropped.
        guard let type = IQType(of: iq), type == .get || type == .set else { return [] }
        guard iq.elements.count == 1, let payload = iq.elements.first else {
            return [.send(error(for: iq, StanzaError(condition: .badRequest, type: .modify)))]
        }
        if let to = iq[attribute: "to"], XMPPAddress(to)?.domain == "muc." + domain {
            // The MUC service and its rooms: the router knows the dialogs.
            return [.route(iq, .iq)]
        }
        guard addressesServerOrSelf(iq[attribute: "to"]) else {
            // XEP-0012 to another user's bare JID: the server answers for them (the router knows
            // presence). No other IQ to a user is routed.
            if type == .get, payload.name == "query", payload.namespace == XMPPNamespace.lastActivity,
               let to = iq[attribute: "to"], let address = XMPPAddress(to), address.resource == nil,
               address.userId(applicationId: applicationId, domain: domain) != nil {
                return [.route(iq, .iq)]
            }
            // An address of this domain that names no user (`-1-1@…`): no answer, as from the hosted
            // service, whose SDK suite pings such an address and expects silence (docs/protocol.md §7).
            if let to = iq[attribute: "to"], let address = XMPPAddress(to), address.domain == domain, address.local != nil,
               address.userId(applicationId: applicationId, domain: domain) == nil {
                return []
            }
            return [.send(error(for: iq, StanzaError(condition: .serviceUnavailable)))]
        }
        switch (type, payload.namespace, payload.name) {
        case (.get, XMPPNamespace.ping, "ping"),
             (.set, XMPPNamespace.session, "session"):
            return [.send(result(for: iq))]
        case (.set, XMPPNamespace.carbons, "enable"), (.set, XMPPNamespace.carbons, "disable"):
            carbonsEnabled = payload.name == "enable"
            return [.send(result(for: iq))]
        case (_, XMPPNamespace.roster, "query"), (_, XMPPNamespace.privacy, "query"):
            // The user's contact and privacy lists: the router keeps them.
            return [.route(iq, .iq)]
        case (.get, XMPPNamespace.discoInfo, "query") where iq[attribute: "to"].map({ $0.lowercased() == domain }) ?? true:
            let features = [XMPPNamespace.discoInfo, XMPPNamespace.discoItems, XMPPNamespace.ping,
                            XMPPNamespace.carbons, XMPPNamespace.streamManagement, XMPPNamespace.roster, XMPPNamespace.privacy]
                .map { "<feature var='\($0)'/>" }.joined()
            return [.send(result(for: iq, payload: "<query xmlns='\(XMPPNamespace.discoInfo)'><identity category='server' type='im' name='chatctl-sandbox'/>\(features)</query>"))]
        case (.get, XMPPNamespace.discoItems, "query") where iq[attribute: "to"].map({ $0.lowercased() == domain }) ?? true:
            // The one service beside the server: group dialogs as MUC rooms.
            let muc = "<item jid='muc.\(XMLEscaping.attribute(domain))' name='Group dialogs'/>"
            return [.send(result(for: iq, payload: "<query xmlns='\(XMPPNamespace.discoItems)'>\(muc)</query>"))]
        default:
            return [.send(error(for: iq, StanzaError(condition: .serviceUnavailable)))]
        }
    }
}
