import Foundation
import Testing

/// CommandLineKit sits in the `--version` path, which must start in < 5 ms: no Foundation, no imports at all.
@Test func commandLineKitImportsNothing() throws {
    let sources = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Shared/CommandLineKit")
    let files = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "swift" }
    #expect(files.count > 5)
    for file in files {
        let text = try String(contentsOf: file, encoding: .utf8)
        let imports = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") || $0.contains(" import ") }
        #expect(imports.isEmpty, "\(file.lastPathComponent): \(imports)")
    }
}
