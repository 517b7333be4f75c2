import Foundation
import Testing

/// The module graph is honest: every module, production or test,
/// imports exactly the modules its target declares (no import of an undeclared module that
/// happens to be built, no declared dependency nothing uses), and nothing is `public`, since
/// the package ships only executables. docs/modules.dot against Package.swift is
/// DocumentationTests' part.
@Suite struct ModuleGraphTests {
    struct Target {
        var name: String
        var dependencies: Set<String>
        var directory: String
    }

    /// Modules of the toolchain and the system: never declared.
    static let system: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch",
                                      "Synchronization", "Testing", "XCTest"]

    /// Swift targets of Package.swift (the fuzz targets, declared only for `make fuzz`, aside):
    /// each declaration read from its `.target(name:` to the next one, as it may span lines.
    static func targets() throws -> [Target] {
        let whole = try DocumentationTests.text("Package.swift")
        let package = whole.components(separatedBy: "// MARK: fuzz targets").first ?? whole
        let starts = try DocumentationTests.matches(#"\.(target|executableTarget|testTarget|systemLibrary)\(name: "(\w+)""#, in: package)
        var rest = Substring(package)
        var found: [Target] = []
        for (index, start) in starts.enumerated() {
            guard let at = rest.range(of: start[0]) else { continue }
            let after = rest[at.upperBound...]
            let end = index + 1 < starts.count ? after.range(of: starts[index + 1][0])?.lowerBound ?? after.endIndex : after.endIndex
            let declaration = String(after[..<end])
            rest = after[end...]
            guard start[1] != "systemLibrary" else { continue }
            var dependencies: Set<String> = []
            if let list = try DocumentationTests.matches(#"dependencies: \[([^\]]*)\]"#, in: declaration).first {
                dependencies = Set(try DocumentationTests.matches(#""(\w+)""#, in: list[1]).map { $0[1] })
            }
            let path = try DocumentationTests.matches(#"path: "([^"]+)""#, in: declaration).first?[1]
            let directory = path ?? (start[1] == "testTarget" ? "Tests/" : "Sources/") + start[2]
            found.append(Target(name: start[2], dependencies: dependencies, directory: directory))
        }
        return found
    }

    /// The modules the Swift files under `directory` import (any access level, `@testable` or not).
    static func imports(in directory: String) throws -> (modules: Set<String>, files: Int) {
        let root = DocumentationTests.root.appendingPathComponent(directory)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return ([], 0) }
        var modules: Set<String> = []
        var files = 0
        for case let url as URL in walker where url.pathExtension == "swift" {
            files += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in try DocumentationTests.matches(#"(?m)^\s*(?:@testable\s+)?(?:(?:internal|package|public|private|fileprivate)\s+)?import\s+(\w+)"#, in: text) {
                modules.insert(match[1])
            }
        }
        return (modules, files)
    }

    @Test func everyModuleImportsExactlyWhatItsTargetDeclares() throws {
        let targets = try Self.targets()
        #expect(targets.count > 40)
        for target in targets {
            let (imported, files) = try Self.imports(in: target.directory)
            guard files > 0 else { continue }  // a C target
            let used = imported.subtracting(Self.system)
            #expect(used.subtracting(target.dependencies).sorted() == [],
                    "\(target.name) imports modules its target does not declare")
            #expect(target.dependencies.subtracting(used).sorted() == [],
                    "\(target.name) declares dependencies it never imports")
        }
    }

    /// `Sources/` is grouped by layer, `Sources/<layer>/<module>`. The C shims import nothing of
    /// ours; what both programs share imports only shims; the client and the sandbox never
    /// import each other (each checks the other, so neither may lean on the other's code); the
    /// bench's tools may use anything.
    static let layerMayImport: [String: Set<String>] = [
        "Shims": ["Shims"],
        "Shared": ["Shims", "Shared"],
        "Client": ["Shims", "Shared", "Client"],
        "Sandbox": ["Shims", "Shared", "Sandbox"],
        "Tools": ["Shims", "Shared", "Client", "Sandbox", "Tools"],
    ]

    @Test func everyModuleSitsInItsLayerAndImportsNothingAboveIt() throws {
        let targets = try Self.targets().filter { $0.directory.hasPrefix("Sources/") }
        #expect(targets.count > 40)
        var layerOf: [String: String] = [:]
        for target in targets {
            let parts = target.directory.split(separator: "/").map(String.init)
            #expect(parts.count == 3 && parts[2] == target.name, "\(target.name) is at \(target.directory), not Sources/<layer>/\(target.name)")
            #expect(Self.layerMayImport[parts[1]] != nil, "\(target.name) is in \(parts[1]), which is not a layer")
            layerOf[target.name] = parts[1]
        }
        // The C modules declared as system libraries (no Swift target row of their own here).
        let shims = try FileManager.default.contentsOfDirectory(atPath: DocumentationTests.root.appendingPathComponent("Sources/Shims").path)
        for shim in shims { layerOf[shim] = "Shims" }
        for target in targets {
            let layer = layerOf[target.name] ?? ""
            for dependency in target.dependencies {
                let theirs = layerOf[dependency] ?? "?"
                #expect(Self.layerMayImport[layer]?.contains(theirs) == true,
                        "\(target.name) (\(layer)) depends on \(dependency) (\(theirs))")
            }
        }
    }

    /// Each line of Swift code under Sources (comments aside) that matches `pattern`, as
    /// "file: line", in the files (paths from the repository's root) `included` takes.
    static func codeLines(matching pattern: String, in included: (String) -> Bool = { _ in true }) throws -> [String] {
        var found: [String] = []
        for (path, text) in try SourceRulesTests.files(under: ["Sources"], extensions: ["swift"]) where included(path) {
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let code = line.split(separator: "//", maxSplits: 1).first.map(String.init) ?? ""
                if try !DocumentationTests.matches(pattern, in: code).isEmpty {
                    found.append("\(path.split(separator: "/").last ?? ""): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test func nothingIsPublicInAPackageOfExecutables() throws {
        let offenders = try Self.codeLines(
            matching: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:\w+\s+)*public\s+(?:import|func|var|let|init|struct|class|enum|protocol|extension|typealias|static|final|subscript)\b"#)
        #expect(offenders == [], "package access, not public: the package ships only executables")
    }

    /// Threads and signals one way in both programs: only Threads starts a thread or changes
    /// what a signal does (the signals a spawned child starts with are posix_spawn's business).
    @Test func onlyThreadsStartsThreadsAndHandlesSignals() throws {
        let offenders = try Self.codeLines(matching: #"(?<![.\w])(?<!case )(pthread_create|sigaction|pthread_sigmask|signal)\("#) {
            !$0.hasPrefix("Sources/Shared/Threads/")
        }
        #expect(offenders == [], "WorkerThread starts threads, ProcessSignals and SignalPipe handle signals")
    }
}
