// chatctl-sandbox off loopback: the published default credentials would let anyone on the
// network sign sessions, so it makes random ones and keeps them in --db (docs/protocol.md §1).
import Foundation
import Testing
import TestSupport

@Suite struct RandomCredentialsProcessTests {
    static let defaults = (authKey: "sandbox-auth-key", authSecret: "sandbox-auth-secret", accountKey: "sandbox-account-key")

    /// The credentials of a config line.
    private func credentials(_ sandbox: SandboxProcess) -> [String] {
        [sandbox.authKey, sandbox.authSecret, sandbox.config["accountKey"] as? String ?? ""]
    }

    /// `POST /session.json` signed with `authKey` and `secret`.
    private func openSession(_ sandbox: SandboxProcess, authKey: String, secret: String) throws -> SandboxHTTPResponse {
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: authKey, secret: secret)
        return try sandbox.response(method: "POST", path: "/session.json", params: params)
    }

    @Test func offLoopbackTheCredentialsAreRandomKeptInTheDatabaseAndTheDefaultsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "random-credentials")
        let db = directory.file("sandbox.db")
        let arguments = ["--host", "0.0.0.0", "--db", db, "--no-chat"]
        let first = try SandboxProcess(arguments: arguments)
        try first.waitForLog(containing: "chatctl-sandbox: listening on 0.0.0.0 with random credentials kept in \(db) (the defaults are for loopback only)")
        let served = credentials(first)
        #expect(served[0] != Self.defaults.authKey && served[1] != Self.defaults.authSecret && served[2] != Self.defaults.accountKey,
                "config line: \(first.configLine)")
        #expect(served.allSatisfy { $0.count == 32 })
        #expect(first.applicationId == 1, "the application id may stay")

        let withDefaults = try openSession(first, authKey: Self.defaults.authKey, secret: Self.defaults.authSecret)
        #expect(withDefaults.status == 422, "signed with the defaults: \(withDefaults.body)")
        let withDefaultSecret = try openSession(first, authKey: first.authKey, secret: Self.defaults.authSecret)
        #expect(withDefaultSecret.status == 422 && withDefaultSecret.body.contains("Unexpected signature"), "\(withDefaultSecret.body)")
        #expect(try openSession(first, authKey: first.authKey, secret: first.authSecret).status == 201, "the served ones sign")
        let settings = try first.send(method: "GET", path: "/account_settings.json", headers: [("QB-Account-Key", Self.defaults.accountKey)])
        #expect(settings.status == 404, "the default account key finds nothing: \(settings.body)")
        #expect(first.stop() == 0)

        let second = try SandboxProcess(arguments: arguments)
        #expect(credentials(second) == served, "a restart on the same --db serves the same credentials")
        #expect(try openSession(second, authKey: served[0], secret: served[1]).status == 201)
    }

    @Test func givenCredentialsAreServedAsGivenAndOnlyTheOthersMadeAtRandom() throws {
        let sandbox = try SandboxProcess(arguments: ["--host", "0.0.0.0", "--no-chat", "--auth-secret", "a-secret-of-our-own"])
        try sandbox.waitForLog(containing: "with a random auth key and account key new at each start (--db keeps them)")
        #expect(sandbox.authSecret == "a-secret-of-our-own")
        #expect(sandbox.authKey != Self.defaults.authKey)
        #expect(try openSession(sandbox, authKey: sandbox.authKey, secret: "a-secret-of-our-own").status == 201)
    }

    @Test func onLoopbackTheDefaultsStay() throws {
        let directory = try TemporaryDirectory(prefix: "loopback-credentials")
        let sandbox = try SandboxProcess(arguments: ["--db", directory.file("sandbox.db"), "--no-chat"])
        #expect(credentials(sandbox) == [Self.defaults.authKey, Self.defaults.authSecret, Self.defaults.accountKey])
        #expect(try openSession(sandbox, authKey: Self.defaults.authKey, secret: Self.defaults.authSecret).status == 201)
        #expect(sandbox.stop() == 0)
        #expect(!sandbox.stderr.contains("random"), "said: \(sandbox.stderr)")
    }
}
