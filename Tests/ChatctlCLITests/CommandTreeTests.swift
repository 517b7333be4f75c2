import CommandLineKit
import Testing
@testable import ChatctlCLI

/// The command tree as chatctl declares it: every command is a type that
/// runs, names are unambiguous, and parsed values reach the typed properties.
@Suite struct CommandTreeTests {
    /// Every command type below the root, with its path.
    static func commandTypes(_ type: any ParsableCommand.Type = Chatctl.self, path: [String] = ["chatctl"])
        -> [(path: [String], type: any ParsableCommand.Type)] {
        type.configuration.subcommands.flatMap { sub in
            let subPath = path + [sub.configuration.name]
            return [(subPath, sub)] + commandTypes(sub, path: subPath)
        }
    }

    @Test func everyCommandRuns() {
        let commands = Self.commandTypes()
        #expect(commands.count == 49)
        for (path, type) in commands {
            #expect(type is any Command.Type, "\(path.joined(separator: " ")) has no run")
        }
    }

    @Test func optionNamesAreUnambiguousAlongEveryPath() {
        for (path, chain) in Chatctl.tree.spec.allCommands() {
            let options = chain.validOptions
            let longs = options.map(\.long) + ["help"]
            let shorts = options.compactMap(\.short) + ["h"]
            #expect(Set(longs).count == longs.count, "\(path): \(longs)")
            #expect(Set(shorts).count == shorts.count, "\(path): \(shorts)")
            let arguments = chain[chain.count - 1].arguments.map(\.name)
            #expect(Set(arguments).count == arguments.count, "\(path): \(arguments)")
        }
    }

    @Test func parsedValuesReachTheCommand() throws {
        guard case .run(let invocation) = try Chatctl.tree.parse(
            ["--config", "/c.json", "history", "@bob", "-n", "5", "--since", "2h", "--mark-read", "-v"]) else {
            Issue.record("history did not parse"); return
        }
        let history = try #require(invocation.command as? HistoryCommand)
        #expect(history.dialog == .user(login: "bob"))
        #expect(history.limit == 5 && history.$limit.spelling == "--limit")
        #expect(history.since?.point == .ago(7200) && history.before == nil)
        #expect(history.markRead && !history.offline && !history.json)
        let root = try #require(invocation.command(Chatctl.self))
        #expect(root.config == "/c.json" && root.stateDir == nil && root.verbose)
    }

    @Test func subcommandsAreTheirOwnTypes() throws {
        guard case .run(let flush) = try Chatctl.tree.parse(["outbox", "flush", "--json"]),
              case .run(let list) = try Chatctl.tree.parse(["outbox"]),
              case .run(let create) = try Chatctl.tree.parse(["dialogs", "create", "--group", "ops", "--with", "@a,@b"]) else {
            Issue.record("did not parse"); return
        }
        #expect((flush.command as? OutboxFlushCommand)?.json == true)
        #expect((list.command as? OutboxCommand)?.json == false)
        let dialog = try #require(create.command as? DialogsCreateCommand)
        #expect(dialog.group == "ops" && dialog.with == "@a,@b" && dialog.private == nil)
    }

    @Test func aBadNumberNamesTheOptionAsSpelt() {
        let (status, io) = runChatctl(["history", "@bob", "--limit", "many", "--offline"])
        #expect(status == 2)
        #expect(io.err.hasPrefix("chatctl: invalid value 'many' for option '--limit'; expected a whole number from 1 to 100000\nusage: chatctl history"))
    }

    @Test func helpDashDashManPrintsThePage() {
        let (status, io) = runChatctl(["help", "--man"])
        #expect(status == 0)
        #expect(io.out.hasPrefix(".TH \"CHATCTL\" 1"))
        #expect(io.out.contains(".SS \"chatctl outbox flush\""))
        #expect(io.out.contains(".SH \"EXIT STATUS\""))
    }
}
