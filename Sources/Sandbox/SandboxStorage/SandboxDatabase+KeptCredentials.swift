// Application credentials made at random for a sandbox off loopback, kept in `sandbox_secrets`
// so that a restart on the same database serves the same ones (docs/protocol.md §1).
import SandboxCrypto

extension SandboxDatabase {
    /// The credential kept under each of `names`; those not kept yet are made (32 random hex
    /// digits) and kept, all in one transaction.
    package func keptRandomCredentials(named names: [String]) throws -> [String: String] {
        var kept: [String: String] = [:]
        var made: [(name: String, value: [UInt8])] = []
        for name in names {
            if let value = try secret(named: "credential-" + name), !value.isEmpty {
                kept[name] = String(decoding: value, as: UTF8.self)
            } else {
                let value = Hex.string(SecureRandom.bytes(16))
                made.append(("credential-" + name, Array(value.utf8)))
                kept[name] = value
            }
        }
        if !made.isEmpty { try keepSecrets(made) }
        return kept
    }
}
