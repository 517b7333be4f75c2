import Foundation
import Testing

/// Expects a rendered screen to be its golden. When it is not, the new screen is written as a
/// Swift literal to `$TMPDIR/chatview-goldens/<name>.swift`, named in the failure: look at it,
/// and paste it over the golden once the change of what users see is meant.
func expectGolden(_ name: String, screen: String, golden: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard screen != golden else { return }
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chatview-goldens")
    let file = directory.appendingPathComponent(name.map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined() + ".swift")
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    let literal = "    \"\"\"\n" + lines.joined(separator: "\n") + "\n    \"\"\"\n"
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try? Data(literal.utf8).write(to: file)
    #expect(screen == golden, "\(name): the new screen is in \(file.path)", sourceLocation: sourceLocation)
}
