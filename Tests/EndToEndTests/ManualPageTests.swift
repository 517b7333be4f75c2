import ChatctlCLI
import CommandLineKit
import Foundation
import SandboxCLI
import Testing
import TestSupport

/// The man pages the programs print (and `make install` ships): groff reads
/// them without a single warning, and every command and option is in them.
@Suite struct ManualPageTests {
    static let programs: [(name: String, spec: CommandSpec)] = [
        ("chatctl", CommandTree(root: Chatctl.self).spec),
        ("chatctl-sandbox", CommandTree(root: ChatctlSandbox.self).spec),
    ]

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func groff(_ arguments: [String], page: String) throws -> ProcessResult {
        let directory = try TemporaryDirectory(prefix: "man")
        let file = directory.path + "/page.1"
        try page.write(toFile: file, atomically: true, encoding: .utf8)
        return try runProcess("/usr/bin/env", ["groff", "-man", "-Tutf8"] + arguments + [file], timeout: 30)
    }

    @Test(arguments: programs.map(\.name))
    func pageRendersWithoutWarningsAndNamesEverything(program: String) throws {
        let spec = try #require(Self.programs.first { $0.name == program }?.spec)
        let printed = try runProcess(productPath(program), ["help", "--man"])
        #expect(printed.status == 0)
        #expect(printed.stdout.hasPrefix(".TH \"\(program.uppercased().replacing("-", with: "\\-"))\" 1"))

        let check = try groff(["-ww", "-z"], page: printed.stdout)
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty, "groff: \(check.stderr)")

        let text = try groff(["-P-cbou"], page: printed.stdout).stdout
        for (path, chain) in spec.allCommands() {
            #expect(text.contains(path.joined(separator: " ")), "\(program) man page lacks '\(path.joined(separator: " "))'")
            for option in chain[chain.count - 1].options + chain[chain.count - 1].inheritedOptions where !option.isHidden {
                #expect(text.contains(option.longSpelling), "\(program) man page lacks \(option.longSpelling)")
                if let short = option.short { #expect(text.contains("-\(short), \(option.longSpelling)")) }
            }
            for argument in chain[chain.count - 1].arguments {
                #expect(text.contains(argument.name), "\(program) man page lacks \(argument.name)")
            }
        }
        if program == "chatctl" { #expect(text.contains("\nEXAMPLES\n"), "chatctl man page lacks EXAMPLES") }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "SEE ALSO"] {
            #expect(text.contains("\n\(section)\n"), "\(program) man page lacks \(section)")
        }
    }

    @Test func makeInstallShipsBinariesPagesAndCompletions() throws {
        let destination = try TemporaryDirectory(prefix: "install")
        let make = try runProcess("/usr/bin/env", ["make", "-s", "-C", Self.repositoryRoot.path, "install-built",
                                                   "BIN=\(productsDirectory.path)", "DESTDIR=\(destination.path)", "PREFIX=/usr"],
                                  timeout: 120)
        #expect(make.status == 0, "make: \(make.stderr)")
        let root = destination.path + "/usr"
        // The example the "no config" error names (ExampleConfig).
        let example = try FileManager.default.attributesOfItem(atPath: root + "/share/doc/chatctl/config.example.json")
        #expect((example[.posixPermissions] as? Int) == 0o644)
        for program in Self.programs.map(\.name) {
            let files = ["bin/\(program)": 0o755, "share/man/man1/\(program).1": 0o644,
                         "share/bash-completion/completions/\(program)": 0o644,
                         "share/zsh/site-functions/_\(program)": 0o644,
                         "share/fish/vendor_completions.d/\(program).fish": 0o644]
            for (file, mode) in files {
                let attributes = try FileManager.default.attributesOfItem(atPath: "\(root)/\(file)")
                #expect((attributes[.posixPermissions] as? Int) == mode, "\(file)")
            }
            let page = try String(contentsOfFile: "\(root)/share/man/man1/\(program).1", encoding: .utf8)
            #expect(page == (try runProcess(productPath(program), ["help", "--man"]).stdout))
            let bash = try runProcess("/bin/bash", ["-c", "source '\(root)/share/bash-completion/completions/\(program)' && complete -p \(program)"])
            #expect(bash.status == 0 && bash.stdout.hasSuffix(" \(program)\n"), "\(bash.stdout)\(bash.stderr)")
        }
    }
}
