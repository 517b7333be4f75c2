import CommandLineKit
import MessageCache
import Presentation
import QuickBloxAPI

/// `chatctl cache`: where the message cache is; `check` and `rebuild` look after it.
struct CacheCommand: Command {
    static let configuration = CommandConfiguration(
        name: "cache",
        abstract: "Check the message cache or rebuild it from the server.",
        discussion: """
            The cache keeps dialogs, messages and the outbox in one SQLite file in the \
            state directory. 'chatctl cache check' says whether it is sound; 'chatctl \
            cache rebuild' moves it aside and fills a fresh one from the server, keeping \
            the outbox. Without a subcommand, prints the cache file's path.
            """,
        subcommands: [CacheCheckCommand.self, CacheRebuildCommand.self],
        examples: [
            Example("Where the cache is", "chatctl cache"),
            Example("The path of the profile work's cache, as JSON", "chatctl -p work cache --json"),
        ])

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let login = try context.cacheLogin(source: .cacheOnly)
        if json {
            context.io.writeOut(JSONOutput.line(.object(["path": .string(login.cachePath)])))
        } else {
            context.io.writeOut(login.cachePath + "\n")
        }
        return .ok
    }
}
