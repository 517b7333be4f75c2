import Foundation
import Testing

/// Rules of the tree that a reader relies on without checking: the code explains itself from
/// inside the repository, and tests wait on signals, not on time.
@Suite struct SourceRulesTests {
    /// The Swift, C and shell files under `directories`, with their text.
    static func files(under directories: [String], extensions: Set<String> = ["swift", "c", "h", "sh", "py"]) throws -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        for directory in directories {
            let root = DocumentationTests.root.appendingPathComponent(directory)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where extensions.contains(url.pathExtension) {
                let path = directory + "/" + url.path.dropFirst(root.path.count + 1)
                guard !path.contains("/Resources/") else { continue }  // vendored third-party code
                found.append((path, try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return found
    }

    /// A comment says its reason itself or points into the repository (docs/, another file):
    /// a reader has nothing else. So no rule numbers of a guide that is not here.
    /// The code cites no issue either: the tracker is not in the repository, and an issue
    /// number tells a reader nothing the sentence should not say itself.
    @Test func noCommentCitesADocumentOutsideTheRepository() throws {
        let everywhere = try NSRegularExpression(pattern: #"(?i)house[ -](style|rule)|style guide|\.\./shared/|\brule \d+ of the"#)
        let inCode = try NSRegularExpression(pattern: #"(?i)\bissue \d+"#)
        var offenders: [String] = []
        let code = try Self.files(under: ["Sources", "Tests", "scripts", "Fuzz"])
        let codePaths = Set(code.map(\.path))
        for (path, text) in try code + Self.documents() {
            let patterns = codePaths.contains(path) ? [everywhere, inCode] : [everywhere]
            let whole = NSRange(text.startIndex..., in: text)
            for pattern in patterns {
                for match in pattern.matches(in: text, range: whole) {
                    guard let at = Range(match.range, in: text) else { continue }
                    let lineStart = text[..<at.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
                    let line = text[lineStart...].prefix { $0 != "\n" }
                    guard !line.contains("NSRegularExpression(pattern:") else { continue }  // these patterns themselves
                    offenders.append("\(path):\(text[..<at.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count)")
                }
            }
        }
        #expect(offenders == [])
    }

    static func documents() throws -> [(path: String, text: String)] {
        var found = try files(under: ["docs"], extensions: ["md", "dot"])
        for file in ["README.md", "CHANGELOG.md", "Makefile", "Package.swift"] {
            found.append((file, try DocumentationTests.text(file)))
        }
        return found
    }

    /// A test waits for what it expects to see (a line, a file, a state), bounded by a
    /// timeout; a sleep of a second or more is time a fast machine wastes and a slow one lacks.
    @Test func noTestSleepsASecondOrMore() throws {
        var offenders: [String] = []
        for (path, text) in try Self.files(under: ["Tests"], extensions: ["swift"]) {
            let sleeps = try DocumentationTests.matches(#"Thread\.sleep\(forTimeInterval: ([\d.]+)\)|\bsleep\((\d+)\)|usleep\(([\d_]+)\)"#, in: text)
            for sleep in sleeps {
                let seconds = Double(sleep[1]) ?? Double(sleep[2]) ?? (Double(sleep[3].replacingOccurrences(of: "_", with: "")) ?? 0) / 1_000_000
                if seconds >= 1 { offenders.append("\(path): \(sleep[0])") }
            }
        }
        #expect(offenders == [])
    }
}
