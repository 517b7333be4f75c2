import Foundation
import Testing
import TestSupport

/// docs/protocol.md §7, with the real binaries: chat TLS is verified against the config's
/// caFile alone when it names one, else against the system's store (SSL_CERT_FILE stands in
/// for it here). A certificate neither vouches for is exit 1, the REST login kept.
@Suite(.serialized) struct ChatTrustEndToEndTests {
    let sandbox: SandboxProcess
    /// Another sandbox: its CA did not sign the first one's certificate.
    let stranger: SandboxProcess
    init() throws {
        sandbox = try SandboxProcess()
        stranger = try SandboxProcess()
    }

    var rightCA: String { sandbox.config["caFile"] as? String ?? "" }
    var otherCA: String { stranger.config["caFile"] as? String ?? "" }

    /// The sandbox's config with `caFile` set to `path`, or without one.
    func config(caFile path: String?, in directory: TemporaryDirectory) throws -> String {
        var object = sandbox.config
        object["caFile"] = path
        let file = directory.file("trust-\(UInt32.random(in: 0...UInt32.max)).json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        return file
    }

    func expectRefused(_ result: ProcessResult) {
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("chatctl: chat connect: TLS to \(sandbox.chatEndpoint) failed: certificate verification failed"),
                "stderr: \(result.stderr)")
        #expect(first.contains("logged in, session saved"), "stderr: \(result.stderr)")
    }

    @Test func aCAFileIsAllChatTrustsEvenWhenTheSystemStoreWouldVouch() throws {
        let directory = try TemporaryDirectory()
        let login = uniqueLogin("trust")
        let wrong = try ChatctlRunner(configPath: try config(caFile: otherCA, in: directory))
        expectRefused(try wrong.login(login, password: ChatUser.password, environment: ["SSL_CERT_FILE": rightCA]))

        let right = try ChatctlRunner(configPath: try config(caFile: rightCA, in: directory))
        let fine = try right.login(login, password: ChatUser.password, environment: ["SSL_CERT_FILE": otherCA])
        #expect(fine.status == 0, "stderr: \(fine.stderr)")
        #expect(fine.stdout.hasSuffix("; chat connected.\n"))
    }

    @Test func withoutACAFileTheSystemStoreDecides() throws {
        let directory = try TemporaryDirectory()
        let cli = try ChatctlRunner(configPath: try config(caFile: nil, in: directory))
        let login = uniqueLogin("system")
        expectRefused(try cli.login(login, password: ChatUser.password, environment: ["SSL_CERT_FILE": otherCA]))
        let fine = try cli.login(login, password: ChatUser.password, environment: ["SSL_CERT_FILE": rightCA])
        #expect(fine.status == 0, "stderr: \(fine.stderr)")
        #expect(fine.stdout.hasSuffix("; chat connected.\n"))
    }
}
