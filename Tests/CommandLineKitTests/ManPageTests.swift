import CommandLineKit
import Foundation
import Testing

@Suite("Man page")
struct ManPageTests {
    static let page = ManPage.render(root: Fixture.root, version: "1.2.0", date: "2026-11-30", extraSections: [
        ManPage.Section(title: "Exit status", body: "0 on success.\n\n2 on a usage error."),
    ])

    @Test func structure() {
        let lines = Self.page.split(separator: "\n").map(String.init)
        #expect(lines.first == #".TH "CHATCTL" 1 "2026\-11\-30" "chatctl 1.2.0" "User Commands""#)
        let sections = lines.filter { $0.hasPrefix(".SH ") }
        #expect(sections == [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH COMMANDS", #".SH "EXIT STATUS""#])
        #expect(lines.contains(#"chatctl \- A command\-line QuickBlox chat client."#))
        #expect(lines.contains(#".SS "chatctl login""#))
        #expect(lines.contains(#"\fBchatctl\fR \fBcompletion\fR [\fIoptions\fR] \fISHELL\fR"#))
        #expect(lines.contains(#"\fB\-\-password\-file\fR \fIPATH\fR"#))
        #expect(lines.contains(#"\fB\-l\fR, \fB\-\-login\fR \fINAME\fR"#))
        // Every command of the tree has its own subsection.
        for name in ["login", "status", "logout", "completion", "send", "help"] {
            #expect(lines.contains(".SS \"chatctl \(name)\""))
        }
    }

    @Test func textIsEscapedForRoff() {
        let root = CommandSpec(name: "tool", abstract: "A tool.", discussion: ".starts with a dot\n'starts with a quote\na \\ backslash")
        let page = ManPage.render(root: root, version: "1", date: "d")
        #expect(page.contains("\n\\&.starts with a dot\n\\&'starts with a quote\na \\e backslash\n"))
    }

    @Test func textBeyondASCIIIsAGroffUnicodeEscape() throws {
        let root = CommandSpec(name: "tool", abstract: "A tool.", discussion: "marks ✓✓, café, 🧪")
        let page = ManPage.render(root: root, version: "1", date: "d")
        #expect(page.contains("\nmarks \\[u2713]\\[u2713], caf\\[u00E9], \\[u1F9EA]\n"))
        try #require(ScriptRunner.has("groff"), "groff is not installed; `make test` installs it")
        let directory = try ScriptRunner.sandbox(["tool.1": page])
        defer { try? FileManager.default.removeItem(at: directory) }
        let check = try ScriptRunner.run(["groff", "-man", "-Tutf8", "-ww", "-z", "tool.1"], in: directory)
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        let text = try ScriptRunner.run(["groff", "-man", "-Tutf8", "-P-cbou", "tool.1"], in: directory).stdout
        #expect(text.contains("marks ✓✓, café"), "\(text)")
    }

    @Test func groffRendersWithoutWarnings() throws {
        try #require(ScriptRunner.has("groff"), "groff is not installed; `make test` installs it")
        let directory = try ScriptRunner.sandbox(["chatctl.1": Self.page])
        defer { try? FileManager.default.removeItem(at: directory) }
        let check = try ScriptRunner.run(["groff", "-man", "-Tutf8", "-ww", "-z", "chatctl.1"], in: directory)
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        let text = try ScriptRunner.run(["groff", "-man", "-Tutf8", "-P-cbou", "chatctl.1"], in: directory).stdout
        #expect(text.contains("chatctl - A command-line QuickBlox chat client."))
        #expect(text.contains("       --password-file PATH\n              Read the password from this file."))
        #expect(text.contains("EXIT STATUS\n       0 on success.\n\n       2 on a usage error."))
    }
}
