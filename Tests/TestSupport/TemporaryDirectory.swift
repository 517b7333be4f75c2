import Foundation

/// A fresh 0700 directory (mkdtemp), removed with everything in it when the value is released.
package final class TemporaryDirectory: Sendable {
    package let path: String

    package init(prefix: String = "chatctl-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestSupportError("mkdtemp in \(base) failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
