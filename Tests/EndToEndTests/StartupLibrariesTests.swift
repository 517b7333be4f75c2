import Foundation
import Testing
import TestSupport

/// A command pays only for what it uses. `--version`, help, completion
/// scripts and offline queries must not load libstrophe, OpenSSL or libcurl (they
/// are loaded on first use: CStrophe, CCryptoShim, CCurlShim); a command that chats
/// still gets them. SQLite is linked in statically (CSQLite), so no command loads it
/// and an offline query loads nothing once running. The dynamic loader itself says
/// what it initialised (`LD_DEBUG=libs`), so linking one of them again fails here.
@Suite(.serialized) struct StartupLibrariesTests {
    /// The libraries only the network needs (libexpat comes with libstrophe).
    static let networkLibraries = ["libstrophe", "libssl", "libcrypto", "libcurl", "libexpat"]

    /// The file names of the shared libraries the loader initialised during the run,
    /// and of those it initialised once the program was running (loaded with dlopen).
    static func loadedLibraries(_ user: ChatUser, _ arguments: [String]) throws -> (ProcessResult, Set<String>, later: Set<String>) {
        let result = try user.cli.run(arguments, environment: ["LD_DEBUG": "libs"])
        var loaded = Set<String>(), later = Set<String>()
        var running = false
        for line in result.stderr.split(separator: "\n") {
            if line.contains("transferring control: ") { running = true }
            guard let range = line.range(of: "calling init: ") else { continue }
            let name = String(line[range.upperBound...].split(separator: "/").last ?? "")
            loaded.insert(name)
            if running { later.insert(name) }
        }
        return (result, loaded, later)
    }

    static func network(in loaded: Set<String>) -> [String] {
        loaded.filter { name in networkLibraries.contains { name.hasPrefix($0 + ".") } }.sorted()
    }

    @Test func offlineCommandsLoadNoNetworkLibraryAndChatLoadsThemOnFirstUse() throws {
        let sandbox = try SandboxProcess()
        let bob = try ChatUser("bob", sandbox: sandbox)
        let alice = try ChatUser("alice", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello from the start-up test"]).status == 0)

        for arguments in [["--version"], ["help"], ["help", "history"], ["completion", "bash"], ["dialogs", "--offline"],
                          ["history", "@" + bob.login, "--offline", "--limit", "50"], ["search", "hello"]] {
            let (result, loaded, _) = try Self.loadedLibraries(alice, arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr.suffix(500))")
            #expect(!result.stdout.isEmpty, "\(arguments) printed its answer")
            #expect(!loaded.isEmpty, "LD_DEBUG=libs reported what \(arguments) loaded")
            #expect(Self.network(in: loaded).isEmpty, "\(arguments) loaded \(Self.network(in: loaded))")
        }
        // SQLite is in the program: no command loads its shared library, and an offline
        // query, which opens the cache, loads nothing at all once running.
        for arguments in [["--version"], ["help"], ["completion", "bash"], ["dialogs", "--offline"]] {
            let (_, loaded, later) = try Self.loadedLibraries(alice, arguments)
            #expect(!loaded.contains { $0.hasPrefix("libsqlite3.") }, "\(arguments) loaded SQLite's shared library")
            if arguments.first == "dialogs" { #expect(later.isEmpty, "dialogs --offline loaded \(later.sorted()) once running") }
        }

        // A command that chats loads every one of them, on first use, and works.
        let (login, _, later) = try Self.loadedLibraries(alice, ["login", "--login", alice.login, "--password-file", try passwordFile(alice)])
        #expect(login.status == 0, "\(login.stderr.suffix(500))")
        for library in ["libstrophe", "libssl", "libcrypto", "libcurl"] {
            #expect(later.contains { $0.hasPrefix(library + ".") }, "login loads \(library) once running: \(later.sorted())")
        }
    }

    private func passwordFile(_ user: ChatUser) throws -> String {
        let file = user.cli.stateDir.file("password")
        try (ChatUser.password + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
