import Foundation
import Testing

/// The Debian packages' hand-kept parts agree with the code: the list of
/// libraries chatctl opens with dlopen names exactly those the C shims open, the service
/// runs the sandbox with options it has and the hardening asked for, and the versions
/// scripts/version.sh makes from git sort as Debian compares them.
@Suite struct DebianPackageTests {
    struct Listed: Equatable {
        var soname: String
        var package: String
        var relation: String
    }

    /// packaging/deb/dlopen-libraries: soname, package, relation on each line.
    static func listed() throws -> [Listed] {
        try DocumentationTests.text("packaging/deb/dlopen-libraries").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#") else { return nil }
            try #require(fields.count == 3, "dlopen-libraries: '\(line)' is not soname, package, relation")
            return Listed(soname: fields[0], package: fields[1], relation: fields[2])
        }
    }

    /// What the C sources open: each `library_open(&…, "soname")`, and the soname literal of
    /// any other file that calls dlopen (which may end at "libssl.so.", the rest from a macro).
    static func opened() throws -> Set<String> {
        let sources = DocumentationTests.root.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var sonames: Set<String> = []
        for case let url as URL in walker where ["c", "h"].contains(url.pathExtension) && url.lastPathComponent != "library_loading.c" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in try DocumentationTests.matches(#"library_open\(&\w+, "([^"]+)"\)"#, in: text) { sonames.insert(match[1]) }
            if text.contains("dlopen(") {
                let literals = try DocumentationTests.matches(#""(lib[\w+-]+\.so\.[\d.]*)""#, in: text).map { $0[1] }
                #expect(!literals.isEmpty, "\(url.lastPathComponent) calls dlopen without a soname this test can read")
                sonames.formUnion(literals)
            }
        }
        return sonames
    }

    @Test func theDlopenListNamesExactlyTheLibrariesTheCodeOpens() throws {
        let listed = try Self.listed()
        let opened = try Self.opened()
        #expect(opened.count >= 8)
        // A soname ending in "." is completed by a header's macro (libssl.so.3): one listed entry completes it.
        func covers(_ soname: String, _ entry: String) -> Bool { soname.hasSuffix(".") ? entry.hasPrefix(soname) : entry == soname }
        for soname in opened.sorted() {
            #expect(listed.filter { covers(soname, $0.soname) }.count == 1,
                    "\(soname) is opened with dlopen but not in packaging/deb/dlopen-libraries once: the package would lack it")
        }
        for entry in listed {
            #expect(opened.contains { covers($0, entry.soname) }, "\(entry.soname) is listed but nothing opens it")
            #expect(["Depends", "Recommends"].contains(entry.relation), "\(entry.soname): relation \(entry.relation)")
        }
        #expect(Set(listed.map(\.soname)).count == listed.count, "a soname listed twice")
    }

    /// The unit's `Key=value` lines; a key given twice keeps each value.
    static func unit() throws -> [String: [String]] {
        var settings: [String: [String]] = [:]
        for line in try DocumentationTests.text("packaging/deb/chatctl-sandbox.service").split(separator: "\n") {
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals]), default: []].append(String(line[line.index(after: equals)...]))
        }
        return settings
    }

    @Test func theServiceRunsTheSandboxAsItsOwnUserWithItsFilesWhereThePackagingGuideSays() throws {
        let unit = try Self.unit()
        let execStart = try #require(unit["ExecStart"]?.first)
        let words = execStart.split(separator: " ").map(String.init)
        #expect(words.first == "/usr/bin/chatctl-sandbox")
        func value(of option: String) -> String? { words.firstIndex(of: option).flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil } }
        #expect(value(of: "--db")?.hasPrefix("/var/lib/chatctl-sandbox/") == true)
        #expect(value(of: "--write-config") == "/run/chatctl-sandbox/config.json")
        // Every option the line gives is one chatctl-sandbox declares.
        let declarations = try DocumentationTests.text("Sources/Sandbox/SandboxCLI/ChatctlSandbox.swift")
        for option in words where option.hasPrefix("--") {
            #expect(declarations.contains("@Option(\"\(option.dropFirst(2))\"") || declarations.contains("@Flag(\"\(option.dropFirst(2))\""),
                    "the unit passes \(option), which chatctl-sandbox does not declare")
        }
        #expect(unit["User"] == ["chatctl-sandbox"] && unit["Group"] == ["chatctl-sandbox"])
        #expect(unit["StateDirectory"] == ["chatctl-sandbox"] && unit["RuntimeDirectory"] == ["chatctl-sandbox"])
        #expect(unit["RuntimeDirectoryMode"] == ["0750"], "the config holds the application's secret: the group's alone")
        for (key, value) in [("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"), ("PrivateTmp", "yes"), ("ProtectHome", "yes"),
                             ("PrivateDevices", "yes"), ("CapabilityBoundingSet", "")] {
            #expect(unit[key] == [value], "\(key)=\(value)")
        }
    }

    /// Runs `arguments` in `directory`; its stdout, trimmed. Fails the test on a non-zero status.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
             "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": "/dev/null"]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func versionsFromGitSortAsDebianComparesThem() throws {
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent("chatctl-version-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: repository) }
        let scripts = repository.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DocumentationTests.root.appendingPathComponent("scripts/version.sh"),
                                         to: scripts.appendingPathComponent("version.sh"))
        let version = ["scripts/version.sh"]
        // Outside git: the base version, and no commit.
        #expect(try Self.run(version, in: repository) == "0.1.0")
        #expect(try Self.run(version + ["--commit"], in: repository) == "unknown")

        try Data("notes\n".utf8).write(to: repository.appendingPathComponent("notes"))
        try Self.run(["git", "init", "-q"], in: repository)
        try Self.run(["git", "add", "."], in: repository)
        try Self.run(["git", "commit", "-q", "-m", "one"], in: repository)
        try Self.run(["git", "commit", "-q", "--allow-empty", "-m", "two"], in: repository)
        let short = try Self.run(["git", "rev-parse", "--short=7", "HEAD"], in: repository)
        let beforeTag = try Self.run(version, in: repository)
        #expect(beforeTag == "0.1.0~2.g\(short)")
        #expect(try Self.run(version + ["--commit"], in: repository) == (try Self.run(["git", "rev-parse", "--short=12", "HEAD"], in: repository)))

        try Self.run(["git", "tag", "-a", "v0.1.0", "-m", "0.1.0"], in: repository)
        let tagged = try Self.run(version, in: repository)
        #expect(tagged == "0.1.0")
        try Self.run(["git", "commit", "-q", "--allow-empty", "-m", "three"], in: repository)
        let after = try Self.run(version, in: repository)
        #expect(after == "0.1.0+1.g\(try Self.run(["git", "rev-parse", "--short=7", "HEAD"], in: repository))")
        // Each sorts after the one before, as dpkg orders the packages' versions (with their -1).
        try Self.run(["dpkg", "--compare-versions", beforeTag + "-1", "lt", tagged + "-1"], in: repository)
        try Self.run(["dpkg", "--compare-versions", tagged + "-1", "lt", after + "-1"], in: repository)

        // A change to a tracked file marks the commit dirty, not the version.
        try Data("changed\n".utf8).write(to: repository.appendingPathComponent("notes"))
        #expect(try Self.run(version + ["--commit"], in: repository).hasSuffix("+dirty"))
        #expect(try Self.run(version, in: repository) == after)
    }
}
