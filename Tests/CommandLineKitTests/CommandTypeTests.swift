import CommandLineKit
import Testing

/// A small program declared as types, the way chatctl and chatctl-sandbox are.
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "tool", abstract: "A tool.", subcommands: [Fetch.self, Queue.self])
    @Option("config", metavar: "PATH", help: "Config file.", completion: .file, inherited: true)
    var config: String?
    @Flag("verbose", short: "v", help: "Say more.", inherited: true)
    var verbose: Bool
}

struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(name: "fetch", abstract: "Fetch things.")
    @Argument("SOURCE", help: "Where from.")
    var source: String
    @Arguments("ITEM", help: "What.")
    var items: [String]
    @Option("limit", short: "n", metavar: "N", help: "At most N.")
    var limit: String?
    @Option("header", metavar: "LINE", help: "Send this header; give it again for more.", repeatable: true)
    var header: String?
    @Flag("dry-run", help: "Only say what would be fetched.")
    var dryRun: Bool
}

/// Runs itself (it has an option) and has a subcommand.
struct Queue: ParsableCommand {
    static let configuration = CommandConfiguration(name: "queue", abstract: "List the queue.", subcommands: [Flush.self])
    @Flag("json", help: "As JSON.")
    var json: Bool
}

struct Flush: ParsableCommand {
    static let configuration = CommandConfiguration(name: "flush", abstract: "Empty the queue.")
}

@Suite("Commands declared as types")
struct CommandTypeTests {
    static let tree = CommandTree(root: Tool.self)

    func run(_ arguments: [String]) throws -> Invocation {
        guard case .run(let invocation) = try Self.tree.parse(arguments) else {
            Issue.record("\(arguments) did not parse to a command to run")
            throw UsageError(message: "not a run", path: [])
        }
        return invocation
    }

    @Test func theSpecIsWhatThePropertiesDeclareInOrder() {
        let expected = CommandSpec(
            name: "tool", abstract: "A tool.",
            subcommands: [
                CommandSpec(name: "fetch", abstract: "Fetch things.",
                            arguments: [ArgumentSpec("SOURCE", help: "Where from."),
                                        ArgumentSpec("ITEM", help: "What.", isOptional: true, isRepeating: true)],
                            options: [OptionSpec("limit", short: "n", kind: .value(metavar: "N"), help: "At most N."),
                                      OptionSpec("header", kind: .value(metavar: "LINE"), help: "Send this header; give it again for more.",
                                                 isRepeatable: true),
                                      OptionSpec("dry-run", help: "Only say what would be fetched.")]),
                CommandSpec(name: "queue", abstract: "List the queue.",
                            options: [OptionSpec("json", help: "As JSON.")],
                            subcommands: [CommandSpec(name: "flush", abstract: "Empty the queue.")]),
            ],
            inheritedOptions: [OptionSpec("config", kind: .value(metavar: "PATH"), help: "Config file.", completion: .file),
                               OptionSpec("verbose", short: "v", help: "Say more.")])
        #expect(Tool.spec == expected)
    }

    @Test func valuesLandInTheTypedProperties() throws {
        let invocation = try run(["--config", "/c", "fetch", "web", "a", "b", "-n", "3", "--dry-run", "-v"])
        #expect(invocation.path == ["tool", "fetch"])
        let fetch = try #require(invocation.command as? Fetch)
        #expect(fetch.source == "web")
        #expect(fetch.items == ["a", "b"])
        #expect(fetch.limit == "3")
        #expect(fetch.$limit.spelling == "--limit")
        #expect(fetch.dryRun)
        let root = try #require(invocation.command(Tool.self))
        #expect(root.config == "/c")
        #expect(root.verbose)
    }

    @Test func aRepeatedOptionKeepsEveryValueInOrderAndReadsAsItsLast() throws {
        let fetch = try #require(try run(["fetch", "web", "--header", "A: 1", "--header=B: 2", "--limit", "1", "--limit", "2"]).command as? Fetch)
        #expect(fetch.$header.values == ["A: 1", "B: 2"])
        #expect(fetch.header == "B: 2")
        #expect(fetch.limit == "2" && fetch.$limit.values == ["1", "2"])
        let none = try #require(try run(["fetch", "web"]).command as? Fetch)
        #expect(none.$header.values.isEmpty && none.header == nil)
    }

    @Test func absentOptionsReadAsAbsent() throws {
        let fetch = try #require(try run(["fetch", "web"]).command as? Fetch)
        #expect(fetch.items.isEmpty && fetch.limit == nil && !fetch.dryRun)
        #expect(try run(["fetch", "web"]).command(Tool.self)?.config == nil)
    }

    @Test func aCommandWithSubcommandsAndOptionsRunsItself() throws {
        #expect(try run(["queue", "--json"]).command is Queue)
        #expect(try run(["queue"]).command is Queue)
        #expect(try run(["queue", "flush"]).command is Flush)
        // The root has only inherited options: it is a pure group and shows its help.
        guard case .help(let path) = try Self.tree.parse([]) else { Issue.record("bare tool should show help"); return }
        #expect(path == ["tool"])
    }

    @Test func eachParseHasItsOwnValues() throws {
        let first = try #require(try run(["fetch", "one", "--limit", "1"]).command as? Fetch)
        let second = try #require(try run(["fetch", "two"]).command as? Fetch)
        #expect(first.source == "one" && first.limit == "1")
        #expect(second.source == "two" && second.limit == nil)
    }

    @Test func concurrentParsesDoNotMix() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<64 {
                group.addTask {
                    guard case .run(let invocation) = try Self.tree.parse(["fetch", "s\(n)", "--limit", "\(n)"]),
                          let fetch = invocation.command as? Fetch else { return false }
                    return fetch.source == "s\(n)" && fetch.limit == "\(n)"
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test func onlyTheCommandsNamedAreMade() {
        let outline = Tool.outline
        #expect(outline.inheritedOptions.count == 2)
        // Named but not yet made: the members come when a parse reaches it.
        #expect(outline.subcommands.map(\.name) == ["fetch", "queue"])
        #expect(outline.subcommands[0].options.isEmpty)
        #expect(outline.subcommand(named: "fetch")?.options.map(\.long) == ["limit", "header", "dry-run"])
        #expect(outline.resolved() == outline)
    }

    @Test func helpAndManPageComeFromTheTypes() {
        let help = Self.tree.parser.help(for: ["tool", "queue"])
        #expect(help.contains("USAGE: tool queue [--json] [<subcommand>]"))
        #expect(help.contains("flush                   Empty the queue."))
        let page = ManPage.render(root: Self.tree.spec, version: "1", date: "d")
        #expect(page.contains(#"\fBtool\fR \fBqueue\fR [\fIoptions\fR] [\fIcommand\fR]"#))
        #expect(page.contains(#"\fBtool\fR \fBfetch\fR [\fIoptions\fR] \fISOURCE\fR [\fIITEM\fR ...]"#))
        #expect(page.contains(#"\fB\-\-dry\-run\fR"#))
    }

    @Test func helpDashDashManAsksForTheManual() throws {
        guard case .manual = try Self.tree.parse(["help", "--man"]) else { Issue.record("help --man"); return }
    }
}
