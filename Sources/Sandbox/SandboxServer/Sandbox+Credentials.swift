// Which application credentials a sandbox serves: the published defaults only on loopback,
// where every test and demo expects them; elsewhere anyone on the network could sign
// sessions with them, so random ones kept in the database (docs/protocol.md §1).
import SandboxStorage

extension Sandbox {
    /// `options` with the credentials it serves filled in, and the line for stderr when some
    /// were made at random (nil on loopback, or when all were given).
    static func servingCredentials(_ options: SandboxOptions, database: SandboxDatabase) throws -> (options: SandboxOptions, notice: String?) {
        var served = options
        let missing = SandboxCredential.allCases.filter { !options.givenCredentials.contains($0) }
        guard !options.listensOnLoopbackOnly, !missing.isEmpty else { return (served, nil) }
        let kept = try database.keptRandomCredentials(named: missing.map(\.rawValue))
        for credential in missing {
            let value = kept[credential.rawValue] ?? ""
            switch credential {
            case .authKey: served.authKey = value
            case .authSecret: served.authSecret = value
            case .accountKey: served.accountKey = value
            }
        }
        let which = missing.count == SandboxCredential.allCases.count ? "random credentials"
            : "a random " + missing.map { $0.rawValue.split(separator: "-").joined(separator: " ") }.joined(separator: " and ")
        let keeping = options.databasePath.map { "kept in \($0)" } ?? "new at each start (--db keeps them)"
        return (served, "chatctl-sandbox: listening on \(options.host) with \(which) \(keeping) (the defaults are for loopback only)")
    }
}
