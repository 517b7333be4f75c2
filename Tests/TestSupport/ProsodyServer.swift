import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throw-away Prosody on a free loopback port, with its own config, data
/// directory and self-signed certificate (CN/SAN localhost, 127.0.0.1). Always
/// stopped: `stop()` or deinit. See docs/interop-testing.md.
package final class ProsodyServer: @unchecked Sendable {
    package static let prosodyPath = "/usr/bin/prosody"
    package static let prosodyctlPath = "/usr/bin/prosodyctl"

    package enum Security: Sendable {
        /// STARTTLS required on `port`; direct TLS also on `directTLSPort`.
        case tls
        /// No TLS module at all; PLAIN over the bare stream (for plaintext-refusal tests).
        case plaintextOnly
    }

    /// The XMPP domain (the JID domain users log in with).
    package let domain = "localhost"
    package let mucDomain = "muc.localhost"
    /// Client port (STARTTLS, or plain text for `.plaintextOnly`).
    package let port: Int
    /// Direct-TLS client port (`xmpps://`), nil for `.plaintextOnly`.
    package let directTLSPort: Int?
    /// The self-signed certificate, PEM: pass it as the CA file to trust this server.
    package let caFile: String
    package let configPath: String
    private let directory: TemporaryDirectory
    private let process: Process
    private let logPath: String

    /// `streamManagement: false` leaves out mod_smacks (a server without XEP-0198).
    package init(security: Security = .tls, users: [(name: String, password: String)] = [], startTimeout: Double = 20,
                streamManagement: Bool = true) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.prosodyPath),
              FileManager.default.isExecutableFile(atPath: Self.prosodyctlPath) else {
            throw TestSupportError("prosody is not installed (\(Self.prosodyPath)); `make test` installs it (apt-get install -y prosody)")
        }
        directory = try TemporaryDirectory(prefix: "chatctl-prosody")
        let dir = directory.path
        let dataPath = directory.file("data")
        try FileManager.default.createDirectory(atPath: dataPath, withIntermediateDirectories: true)
        port = try LoopbackListener.freePort()
        directTLSPort = security == .tls ? try LoopbackListener.freePort(avoiding: port) : nil
        caFile = directory.file("localhost.crt")
        let keyFile = directory.file("localhost.key")
        logPath = directory.file("prosody.log")
        configPath = directory.file("prosody.cfg.lua")

        if security == .tls {
            let openssl = try runProcess("/usr/bin/openssl", [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", keyFile, "-out", caFile, "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ], timeout: 30)
            guard openssl.status == 0 else { throw TestSupportError("openssl req failed: \(openssl.stderr)") }
        }

        var config = """
        pidfile = "\(dir)/prosody.pid"
        data_path = "\(dataPath)"
        interfaces = { "127.0.0.1" }
        c2s_ports = { \(port) }
        s2s_ports = { }
        http_ports = { }
        https_ports = { }
        log = { { levels = { min = "warn" }, to = "console" } }
        authentication = "internal_plain"
        storage = "internal"
        -- QuickBlox offers SASL PLAIN; make libstrophe use it here too.
        disable_sasl_mechanisms = { "DIGEST-MD5", "SCRAM-SHA-1", "SCRAM-SHA-1-PLUS", "SCRAM-SHA-256", "SCRAM-SHA-256-PLUS" }
        certificates = "\(dir)"

        """
        switch security {
        case .tls:
            config += """
            modules_enabled = { "roster", "saslauth", "tls", "disco", "ping", \(streamManagement ? "\"smacks\", " : "")"carbons", "presence", "message" }
            modules_disabled = { "posix" }
            c2s_require_encryption = true
            c2s_direct_tls_ports = { \(directTLSPort!) }
            ssl = { key = "\(keyFile)", certificate = "\(caFile)" }

            """
        case .plaintextOnly:
            config += """
            modules_enabled = { "roster", "saslauth", "disco", "ping", \(streamManagement ? "\"smacks\", " : "")"carbons", "presence", "message" }
            modules_disabled = { "posix", "tls" }
            c2s_require_encryption = false
            allow_unencrypted_plain_auth = true

            """
        }
        config += """
        VirtualHost "localhost"
        Component "muc.localhost" "muc"
            -- QuickBlox rooms exist before anyone joins: no locked-until-configured rooms.
            muc_room_locking = false

        """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        try Self.chownToProsody(dir)

        for user in users { try Self.register(configPath: configPath, name: user.name, password: user.password, domain: domain) }

        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.prosodyPath)
        process.arguments = ["--config", configPath]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        try? log.close()

        // Ready about a second after start: poll the port(s), never sleep blindly.
        let deadline = Date().addingTimeInterval(startTimeout)
        for readyPort in [port] + (directTLSPort.map { [$0] } ?? []) {
            while !TCPConnection.canConnect(port: readyPort) {
                if !process.isRunning || Date() > deadline {
                    let log = logText
                    stop()
                    throw TestSupportError("prosody did not listen on 127.0.0.1:\(readyPort) within \(startTimeout) s; log:\n\(log)")
                }
                usleep(20_000)
            }
        }
    }

    /// `prosodyctl register USER DOMAIN PASSWORD` (works while the server runs).
    package func register(name: String, password: String) throws {
        try Self.register(configPath: configPath, name: name, password: password, domain: domain)
    }

    /// What prosody printed (warnings and errors).
    package var logText: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    package var isRunning: Bool { process.isRunning }

    /// SIGSTOP: the server stops answering but keeps its sockets open, like a
    /// half-open connection (keep-alive tests). `resume()` undoes it; `stop()` too.
    package func suspend() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGSTOP)
    }

    package func resume() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
    }

    /// SIGTERM, then SIGKILL after `grace` seconds. Idempotent. The grace is short:
    /// launched from the test runner, prosody ignores SIGTERM (measured: never exits),
    /// and a throw-away server has nothing worth saving.
    package func stop(grace: Double = 0.3) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)  // a suspended server cannot act on SIGTERM
        process.terminate()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }

    // MARK: helpers

    private static func register(configPath: String, name: String, password: String, domain: String) throws {
        let result = try runProcess(prosodyctlPath, ["--config", configPath, "register", name, domain, password], timeout: 30)
        guard result.status == 0 else {
            throw TestSupportError("prosodyctl register \(name) failed (\(result.status)): \(result.stdout) \(result.stderr)")
        }
    }

    /// prosodyctl drops to the prosody user when run as root: it must own the data.
    private static func chownToProsody(_ dir: String) throws {
        guard getuid() == 0 else { return }
        let result = try runProcess("/bin/chown", ["-R", "prosody:prosody", dir], timeout: 10)
        guard result.status == 0 else { throw TestSupportError("chown prosody failed: \(result.stderr)") }
    }
}

extension ProsodyServer {
    /// A chatctl config that uses `sandbox` for REST and this server for chat.
    /// Prosody knows passwords, not QuickBlox tokens: `chatAuth` is `password`.
    package func chatctlConfig(restFrom sandbox: SandboxProcess, in directory: TemporaryDirectory) throws -> String {
        var object = sandbox.config
        object["endpoints"] = ["api": sandbox.apiEndpoint, "chat": "xmpp://127.0.0.1:\(port)"]
        object["caFile"] = caFile
        object["chatDomain"] = domain
        object["chatAuth"] = "password"
        let path = directory.file("prosody-config.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }
}
