import SandboxLogging
import SandboxNetwork

/// What every client connection of one server shares: the names it serves, its limits, the
/// log, its TLS identity, the credentials check, the turn's group commit, and the handlers of
/// the events a connection raises (`ConnectionEvents`).
struct ConnectionEnvironment {
    let chat: ChatDomain
    let limits: XMPPServer.Limits
    let log: SandboxLog
    let tls: TLSIdentity
    let authenticator: any ChatAuthenticator
    let turn: TurnCommit
    let events: ConnectionEvents
}
