// The generated TLS identity, kept in `sandbox_secrets` so a restart serves the same certificate.
internal import SQLiteStore

extension SandboxDatabase {
    /// The self-signed identity kept here when it names `dnsNames` and `ipAddresses` and stays
    /// valid for another week; otherwise a new one, kept for the next start.
    func keptTLSIdentity(dnsNames: [String], ipAddresses: [String], log: SandboxLog) throws -> TLSIdentity {
        let names = (dnsNames + ipAddresses).joined(separator: ",")
        if try secret("tls-names").map({ String(decoding: $0, as: UTF8.self) }) == names,
           let certificate = try secret("tls-certificate"), let key = try secret("tls-key"),
           let kept = try? TLSIdentity.load(certificatePEM: String(decoding: certificate, as: UTF8.self),
                                            keyPEM: String(decoding: key, as: UTF8.self)),
           kept.isValid(forAnother: 7 * 86_400) {
            return kept
        }
        let made = try TLSIdentity.selfSigned(dnsNames: dnsNames, ipAddresses: ipAddresses)
        try db.transaction {
            for (name, value) in [("tls-names", names), ("tls-certificate", made.certificatePEM), ("tls-key", try made.privateKeyPEM())] {
                try db.run("INSERT OR REPLACE INTO sandbox_secrets (name, value) VALUES (?, ?)", [.text(name), .blob(Array(value.utf8))])
            }
        }
        log.log(.info, "tls: made a self-signed certificate for \(names)")
        return made
    }

    private func secret(_ name: String) throws -> [UInt8]? {
        try db.queryFirst("SELECT value FROM sandbox_secrets WHERE name = ?", [.text(name)]) { $0.blob(0) } ?? nil
    }
}
