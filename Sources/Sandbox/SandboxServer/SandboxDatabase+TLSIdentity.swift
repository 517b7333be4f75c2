// The generated TLS identity, kept in `sandbox_secrets` so a restart serves the same certificate.
import SandboxLogging
import SandboxNetwork
import SandboxStorage

extension SandboxDatabase {
    /// The self-signed identity kept here when it names `dnsNames` and `ipAddresses` and stays
    /// valid for another week; otherwise a new one, kept for the next start.
    func keptTLSIdentity(dnsNames: [String], ipAddresses: [String], log: SandboxLog) throws -> TLSIdentity {
        let names = (dnsNames + ipAddresses).joined(separator: ",")
        if try secret(named: "tls-names").map({ String(decoding: $0, as: UTF8.self) }) == names,
           let certificate = try secret(named: "tls-certificate"), let key = try secret(named: "tls-key"),
           let kept = try? TLSIdentity.load(certificatePEM: String(decoding: certificate, as: UTF8.self),
                                            keyPEM: String(decoding: key, as: UTF8.self)),
           kept.isValid(forAnother: 7 * 86_400) {
            return kept
        }
        let made = try TLSIdentity.selfSigned(dnsNames: dnsNames, ipAddresses: ipAddresses)
        try keepSecrets([("tls-names", Array(names.utf8)), ("tls-certificate", Array(made.certificatePEM.utf8)),
                         ("tls-key", Array(try made.privateKeyPEM().utf8))])
        log.log(.info, "tls: made a self-signed certificate for \(names)")
        return made
    }
}
