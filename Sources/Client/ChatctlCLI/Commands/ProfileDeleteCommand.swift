#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import CommandLineKit
import Diagnostics
import Messaging
import Presentation

/// `chatctl me delete`: remove your account, then everything kept here for it.
struct ProfileDeleteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "delete",
        abstract: "Delete your account on the server, and its session and cache here.",
        discussion: """
            Asks you to type your login to confirm (--yes for scripts). Your messages stay in the dialogs of \
            the people you wrote to; your session ends and this machine's session file, cache and outbox go \
            (with the pictures kept for the chat view, unless another account here still uses them).
            """,
        examples: [
            Example("Delete your account (asks you to type your login)", "chatctl me delete"),
            Example("From a script, without asking", "chatctl me delete --yes"),
        ])

    @Flag("yes", help: "Do not ask for confirmation.")
    var yes: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let login = try context.cacheLogin(source: .server)
        let name = login.session.login ?? String(login.session.userId)
        if !yes {
            guard context.io.stdinIsTerminal else {
                throw context.usage("deleting your account needs confirmation: run on a terminal, or give --yes")
            }
            let typed = context.io.readLine(prompt: "This deletes the account '\(TerminalText.sanitize(name, newlines: .asSpaces))' for good. Type its login to confirm: ")
            guard typed == name else { throw Failure(.invalidInput, "not deleted: the login typed does not match") }
        }
        let service = try context.messagingService(source: .server)
        try service.deleteAccount()
        // The outbox's own copies of files waiting to be sent go with the entries (never the user's originals).
        for entry in (try? service.pendingOutbox()) ?? [] { _ = try? service.dropFromOutbox(clientMessageID: entry.clientMessageID) }
        // The server forgot the session with the account: only what is here is left to remove.
        let shown = TerminalText.sanitize(name, newlines: .asSpaces)
        let keeper = try context.sessionKeeper()
        do { try keeper.store.remove() } catch {
            throw Failure(error.kind, "the account \(shown) is deleted; \(error.message)", hint: "remove the session file by hand")
        }
        for path in [login.cachePath, login.cachePath + "-wal", login.cachePath + "-shm"] { _ = unlink(path) }
        Self.removeSharedPictures(in: keeper.store.directory)
        context.tellChange("deleted the account \(shown)", json: nil)
        return .ok
    }

    /// Avatars and image previews are kept per state directory, shared by its sessions: they go with
    /// the last session and cache in it, and stay while another account still uses them.
    static func removeSharedPictures(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let othersRemain = names.contains { name in
            (name.hasPrefix("session-") && name.hasSuffix(".json")) || (name.hasPrefix("cache-") && name.hasSuffix(".sqlite"))
        }
        guard !othersRemain else { return }
        for kept in ["avatars", "previews", "outbox-files"] {
            try? FileManager.default.removeItem(atPath: directory + "/" + kept)
        }
    }
}
