import Foundation
import Testing

/// Commands only parse, call and present: what they read of the message cache, they ask the
/// messaging layer for (`MessagingService`), so the command line and the chat view share one
/// answer to each question and no command grows its own query.
@Suite struct CommandLayerTests {
    static let commands = "Sources/Client/ChatctlCLI/Commands"

    /// Lines of the command files that reach the cache: a `.cache` member or the `ChatCache` type.
    /// Comments (help text, doc comments) may speak of the cache; code may not touch it.
    static func cacheAccess() throws -> [String] {
        let root = DocumentationTests.root.appendingPathComponent(commands)
        let files = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        var found: [String] = []
        for url in files {
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first ?? line
                if try !DocumentationTests.matches(#"\.cache\b|\bChatCache\b"#, in: code).isEmpty {
                    found.append("\(url.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test func noCommandTouchesTheCache() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DocumentationTests.root.appendingPathComponent(Self.commands).path)
        #expect(files.count > 30, "the command files are where this test looks for them")
        let found = try Self.cacheAccess()
        #expect(found.isEmpty, "ask MessagingService instead:\n\(found.joined(separator: "\n"))")
    }
}
