#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Paths as a link from one file to another needs them: a saved attachment as seen
/// from the directory of the export that links to it. Lexical only (no symlinks resolved).
enum RelativePath {
    /// `target` relative to `directory`; both may be relative to the current directory.
    static func from(_ directory: String, to target: String, currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let from = components(absolute(directory, in: currentDirectory))
        let to = components(absolute(target, in: currentDirectory))
        var common = 0
        while common < from.count && common < to.count && from[common] == to[common] { common += 1 }
        let path = Array(repeating: "..", count: from.count - common) + to[common...]
        return path.isEmpty ? "." : path.joined(separator: "/")
    }

    /// The directory a file is in (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component.
    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func absolute(_ path: String, in current: String) -> String {
        path.hasPrefix("/") ? path : current + "/" + path
    }

    /// Without empty and `.` components, `..` taking one away.
    private static func components(_ path: String) -> [String] {
        var out: [String] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !out.isEmpty { out.removeLast() }; continue }
            out.append(String(part))
        }
        return out
    }
}
