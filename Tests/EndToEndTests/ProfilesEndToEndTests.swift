import Foundation
import Testing
import TestSupport

/// Two accounts side by side through profiles, against the real sandbox.
@Suite struct ProfilesEndToEndTests {
    @Test func twoAccountsSideBySide() throws {
        let sandbox = try SandboxProcess()
        let home = try TemporaryDirectory(prefix: "profiles")
        let profiles = home.path + "/config/chatctl/profiles"
        try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        try sandbox.configLine.write(toFile: home.path + "/config/chatctl/config.json", atomically: true, encoding: .utf8)
        try sandbox.configLine.write(toFile: profiles + "/work.json", atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": home.path + "/config", "XDG_STATE_HOME": home.path + "/state"]
        func chatctl(_ arguments: [String], stdin: String? = nil, extra: [String: String] = [:]) throws -> ProcessResult {
            try runProcess(productPath("chatctl"), arguments, environment: env.merging(extra) { $1 }, stdin: stdin.map { Data($0.utf8) })
        }
        let me = uniqueLogin("me"), bot = uniqueLogin("bot")
        #expect(try chatctl(["login", "--login", me, "--password-stdin", "--no-chat"], stdin: "me-password-1\n").status == 0)
        #expect(try chatctl(["--profile", "work", "login", "--login", bot, "--password-stdin", "--no-chat"], stdin: "bot-password-1\n").status == 0)

        // Each account is itself: the default one, and the profile by flag or environment.
        #expect(try chatctl(["status"]).stdout.hasPrefix("Logged in as \(me) "))
        #expect(try chatctl(["-p", "work", "status"]).stdout.hasPrefix("Logged in as \(bot) "))
        #expect(try chatctl(["status"], extra: ["CHATCTL_PROFILE": "work"]).stdout.hasPrefix("Logged in as \(bot) "))
        let sent = try chatctl(["--profile", "work", "send", "@" + me, "from the bot"])
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        let history = try chatctl(["history", "@" + bot, "--json"])
        let messages = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        #expect(messages.map { $0["message"] as? String } == ["from the bot"])

        let listed = try chatctl(["profiles", "--json"], extra: ["CHATCTL_PROFILE": "work"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["login"] as? String } == [me, bot])
        #expect(rows.map { $0["selected"] as? Bool } == [false, true])
        #expect(rows.map { $0["name"] as? String } == [nil, "work"])

        #expect(try chatctl(["-p", "work", "logout"]).status == 0)
        #expect(try chatctl(["-p", "work", "status"]).status == 4)
        #expect(try chatctl(["status"]).status == 0, "logging out of one profile leaves the other")
    }

    @Test(arguments: [(["--profile", "nope", "status"], "chatctl: there is no profile 'nope'"),
                      (["--profile", "../etc", "status"], "chatctl: invalid profile name '../etc'")])
    func aProfileThatIsNotThereIsAUsageError(arguments: [String], message: String) throws {
        let home = try TemporaryDirectory(prefix: "profiles")
        let result = try runProcess(productPath("chatctl"), arguments, environment: ["XDG_CONFIG_HOME": home.path, "XDG_STATE_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
