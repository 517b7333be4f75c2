import Foundation
import Testing

/// docs/ and the README describe the tree as it is: the module picture has
/// Package.swift's edges, the layout names every module, citations of
/// docs/protocol.md name real sections, and the architecture's files exist.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { i in Range(match.range(at: i), in: text).map { String(text[$0]) } ?? "" }
        }
    }

    /// Every non-test target's declared dependencies, from Package.swift.
    static func packageEdges() throws -> Set<String> {
        let package = try text("Package.swift")
        var edges: Set<String> = []
        for match in try matches(#"\.(?:target|executableTarget)\(name: "(\w+)",\s*dependencies: \[([^\]]*)\]"#, in: package) {
            if match[0].contains("path: \"Tests") { continue }
            for dependency in try matches(#""(\w+)""#, in: match[2]) { edges.insert("\(match[1]) -> \(dependency[1])") }
        }
        return edges.filter { !$0.hasPrefix("TestSupport") }
    }

    /// The edges of docs/modules.dot (`a -> b;` and `a -> {b c};`).
    static func pictureEdges() throws -> Set<String> {
        let dot = try text("docs/modules.dot")
        var edges: Set<String> = []
        for match in try matches(#"(\w+) -> (?:\{([^}]*)\}|(\w+));"#, in: dot) {
            let targets = match[2].isEmpty ? [match[3]] : match[2].split(separator: " ").map(String.init)
            for target in targets { edges.insert("\(match[1]) -> \(target)") }
        }
        return edges
    }

    @Test func theModulePictureHasExactlyPackageSwiftsEdges() throws {
        let package = try Self.packageEdges()
        let picture = try Self.pictureEdges()
        #expect(package.count > 30)
        #expect(package.subtracting(picture).sorted() == [], "in Package.swift, not in docs/modules.dot")
        #expect(picture.subtracting(package).sorted() == [], "in docs/modules.dot, not in Package.swift")
    }

    /// Each box of the picture is a folder of `Sources/`: the cluster labelled `Layer/:` holds
    /// exactly the modules in `Sources/Layer`.
    @Test func theModulePicturesBoxesAreTheSourceFolders() throws {
        let dot = try Self.text("docs/modules.dot")
        let clusters = try Self.matches(#"subgraph \w+ \{\s*label="(\w+)/:[^"]*";([^}]*)\}"#, in: dot)
        #expect(clusters.count == 5)
        for cluster in clusters {
            let statements = cluster[2].split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let drawn = Set(statements.compactMap { statement -> String? in
                guard let name = statement.split(separator: " ").first.map(String.init),
                      name.first?.isUppercase == true || name == "chatctl" else { return nil }
                return name.contains("=") ? nil : name
            })
            let folder = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/\(cluster[1])").path)
            #expect(drawn == Set(folder), "docs/modules.dot's \(cluster[1])/ box against Sources/\(cluster[1])")
        }
    }

    @Test func theRenderedPictureShowsEveryModule() throws {
        let svg = try Self.text("docs/modules.svg")
        for module in Set(try Self.pictureEdges().flatMap { $0.components(separatedBy: " -> ") }) {
            #expect(svg.contains("<title>\(module)</title>"), "docs/modules.svg lacks \(module): run make docs")
        }
    }

    @Test func theArchitecturesLayoutNamesEverySourceModule() throws {
        let architecture = try Self.text("docs/architecture.md")
        let layout = try #require(architecture.range(of: "## Layout").map { String(architecture[$0.upperBound...]) })
        let layers = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(layers.sorted() == ["Client", "Sandbox", "Shared", "Shims", "Tools"])
        let modules = try layers.flatMap { layer in
            try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/\(layer)").path)
        }
        #expect(modules.count > 40)
        for module in layers + modules {
            #expect(try !Self.matches(#"\b\#(module)\b"#, in: layout).isEmpty, "docs/architecture.md's Layout lacks \(module)")
        }
    }

    @Test func citationsOfTheProtocolNameRealSections() throws {
        let protocolText = try Self.text("docs/protocol.md")
        let sections = Set(try Self.matches(#"(?m)^## (\d+)\. "#, in: protocolText).map { $0[1] })
        #expect(sections == Set((1...15).map(String.init)))
        var citations = 0
        for directory in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(directory).path)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let source = try Self.text("\(directory)/\(file)")
                let oldName = "protocol" + " doc"  // spelt apart so this file does not match itself
                #expect(!source.contains(oldName + " ") && !source.contains(oldName + "'"), "\(file) cites a protocol document by an old name")
                for match in try Self.matches(#"docs/protocol\.md ((?:§\d+(?:–\d+)?(?:, )?)+)"#, in: source) {
                    for number in try Self.matches(#"\d+"#, in: match[1]) {
                        citations += 1
                        #expect(sections.contains(number[0]), "\(file) cites docs/protocol.md §\(number[0]), which does not exist")
                    }
                }
            }
        }
        #expect(citations > 20)
    }

    @Test func theArchitecturesFilesExist() throws {
        let architecture = try Self.text("docs/architecture.md")
        let sources = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)
        var files: Set<String> = []
        while let file = sources?.nextObject() as? String { files.insert(file) }
        let cited = try Self.matches(#"`([\w+/]+\.swift)`"#, in: architecture).map { $0[1] }
        #expect(cited.count > 25)
        for file in cited where file.hasPrefix("Tests/") {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path), "docs/architecture.md cites \(file)")
        }
        for file in cited where !file.hasPrefix("Tests/") {
            #expect(files.contains { $0 == file || $0.hasSuffix("/" + file) }, "docs/architecture.md cites \(file), which is not in Sources")
        }
    }

    /// `make bench`'s committed results hold every figure of the speed guide's table, each beside
    /// its baseline where it has one, and the guide shows the chart drawn from them.
    @Test func theBenchResultsAreCommittedAndShown() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("docs/bench/results.json"))
        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rows = try #require(results["rows"] as? [[String: Any]])
        let keys = Set(rows.compactMap { $0["key"] as? String })
        for key in ["startup_version", "startup_dialogs", "startup_history", "login", "send_lines", "listen_json", "listen_rss",
                    "sandbox_router", "sandbox_scale_125", "sandbox_scale_250", "sandbox_scale_500", "sandbox_scale_1000"] {
            #expect(keys.contains(key), "docs/bench/results.json has no row \(key)")
        }
        for row in rows where ["startup_version", "startup_dialogs", "startup_history", "login", "send_lines", "listen_json"].contains(row["key"] as? String ?? "") {
            #expect((row["baseline"] as? [String: Any])?["value"] is NSNumber, "\(row["key"] ?? "?") has no baseline")
        }
        let png = try Data(contentsOf: Self.root.appendingPathComponent("docs/bench/bench.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "docs/bench/bench.png is a PNG")
        #expect(try Self.text("docs/speed.md").contains("](bench/bench.png)"))
    }

    /// The README is read in two minutes: at most 300 lines, prose lines of at most 120
    /// characters (a code block or a link may run longer), and every guide under docs/ linked
    /// from it, so what moved out of it is one click away.
    @Test func theReadmeIsAFrontDoorToTheGuides() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300, "README.md has \(lines.count) lines")
        var inCode = false
        for (number, line) in lines.enumerated() {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            if inCode || line.contains("](") { continue }
            #expect(line.count <= 120, "README.md:\(number + 1) has \(line.count) characters")
        }
        let guides = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
        #expect(guides.count >= 10)
        for guide in guides {
            #expect(readme.contains("](docs/\(guide))"), "README.md does not link docs/\(guide)")
        }
    }
}
