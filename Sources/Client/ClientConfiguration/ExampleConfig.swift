internal import Glibc

/// Where a person finds `config.example.json` to copy: `make install` puts it in
/// PREFIX/share/doc/chatctl beside PREFIX/bin/chatctl; a chatctl run from its
/// build directory finds the one at the top of its source tree.
package enum ExampleConfig {
    static let fileName = "config.example.json"

    /// The installed example if it is there, else the source tree's, else nil.
    package static func path(executable: String? = runningExecutable()) -> String? {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return nil }
        var directory = String(executable[..<slash])
        let installed = parent(of: directory) + "/share/doc/chatctl/" + fileName
        if isFile(installed) { return installed }
        // .build/<triple>/debug/chatctl: the source tree is three levels up (a few more allowed).
        for _ in 0..<5 where !directory.isEmpty {
            directory = parent(of: directory)
            if isFile(directory + "/" + fileName) && isFile(directory + "/Package.swift") { return directory + "/" + fileName }
        }
        return nil
    }

    /// What to do when there is no config at `configPath`: copy the example there,
    /// or let a local sandbox write one. The commands work as pasted into a shell on a
    /// fresh home, where the config's directory does not exist yet.
    package static func hint(configPath: String, example: String? = path()) -> String {
        let directory = parent(of: configPath)
        let makeDirectory = directory.isEmpty ? "" : "mkdir -p \(shellWord(directory)) && "
        let copy = example.map { "copy it with '\(makeDirectory)cp \(shellWord($0)) \(shellWord(configPath))' and fill in your application's keys" }
            ?? "copy config.example.json from chatctl's source there and fill in your application's keys"
        return "\(copy); for a local server instead, run '\(makeDirectory)chatctl-sandbox > \(shellWord(configPath)) &', "
            + "which writes its config there; or pass --config PATH, or set CHATCTL_CONFIG"
    }

    /// `path` as one word of a shell command: as it is when nothing in it is special to a
    /// shell, else in double quotes (the hint itself is in single quotes).
    static func shellWord(_ path: String) -> String {
        let plain = path.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "/._-+,:@%".utf8.contains(byte)
        }
        guard !plain || path.isEmpty else { return path }
        var quoted = "\""
        for character in path {
            if "\"\\$`".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// /proc/self/exe: the binary itself, symbolic links resolved.
    package static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parent(of directory: String) -> String {
        guard let slash = directory.lastIndex(of: "/") else { return "" }
        return String(directory[..<slash])
    }

    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
