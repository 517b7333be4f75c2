import Foundation

/// Debian's `chromium`, headless, running one page whose `console.log` lines a test reads
/// (Chromium writes them on stderr with `--enable-logging=stderr`). A profile of its own,
/// removed with it; stopped (SIGTERM, then SIGKILL) when released.
package final class HeadlessChromium: @unchecked Sendable {
    package static let executable = "/usr/bin/chromium"
    /// Debian's libjs-strophe: Strophe.js, the XMPP library under QuickBlox's web SDK.
    package static let stropheJS = "/usr/share/javascript/strophe/strophe.min.js"

    /// Fails, never skips: `make test` installs chromium and libjs-strophe.
    package static func requireInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestSupportError("chromium is not installed; `make test` installs it")
        }
        guard FileManager.default.fileExists(atPath: stropheJS) else {
            throw TestSupportError("libjs-strophe is not installed; `make test` installs it")
        }
    }

    private let profile: TemporaryDirectory
    private let process: ChildProcess

    /// Opens `url` (a `file://` page may load other files; `--no-sandbox` because tests run as root).
    /// `trusting`: PEM certificate files whose keys this profile trusts for TLS (a sandbox's caFile).
    /// `arguments`: more switches (`--host-resolver-rules=…`, say).
    package init(url: String, trusting certificates: [String] = [], arguments: [String] = []) throws {
        try Self.requireInstalled()
        profile = try TemporaryDirectory(prefix: "chromium-profile")
        var trust: [String] = []
        if !certificates.isEmpty {
            // Exactly these keys, and only with a profile of its own (--user-data-dir), as docs/web.md says.
            trust = ["--ignore-certificate-errors-spki-list=" + (try certificates.map { try Self.publicKeyHash(ofCertificate: $0) }.joined(separator: ","))]
        }
        process = try ChildProcess(Self.executable, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
        ] + trust + arguments + [url])
    }

    /// The base64 SHA-256 of a PEM certificate's public key (its SPKI), by docs/web.md's openssl pipeline.
    package static func publicKeyHash(ofCertificate file: String) throws -> String {
        let quoted = "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let pipeline = "openssl x509 -in \(quoted) -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        let run = try runProcess("/bin/bash", ["-o", "pipefail", "-c", pipeline], timeout: 30)
        let hash = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.status == 0, hash.count == 44 else {
            throw TestSupportError("cannot hash the key of \(file): \(run.stderr)")
        }
        return hash
    }

    /// Everything Chromium wrote on stderr so far, its log and the page's console lines.
    package var log: String { process.stderr.text }

    /// The page's console messages that start with `prefix`, in order.
    package func console(prefix: String) -> [String] { Self.console(prefix: prefix, in: log) }

    /// Waits until a console message starting with `prefix` satisfies `done`; returns it.
    @discardableResult
    package func waitForConsole(_ what: String, prefix: String, timeout: Double,
                               until done: (String) -> Bool) throws -> String {
        var found: String?
        try process.stderr.wait(for: what, timeout: timeout) { text in
            found = Self.console(prefix: prefix, in: text).first(where: done)
            return found != nil
        }
        return found!
    }

    /// Chromium quotes each console message in its log (`… "PREFIX …", source: …`); a page
    /// keeps quotes out of what it logs.
    static func console(prefix: String, in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "\"" + prefix) else { return nil }
            let rest = line[line.index(after: start.lowerBound)...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
    }

    /// Ends the browser and its helpers. Idempotent.
    package func stop() {
        process.signal(SIGTERM)
        _ = process.finish(timeout: 10)
    }

    deinit { stop() }
}
