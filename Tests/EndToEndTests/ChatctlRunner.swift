import Foundation
import TestSupport

/// Runs the real `chatctl` binary with a private state directory.
struct ChatctlRunner {
    let configPath: String
    let stateDir: TemporaryDirectory

    init(configPath: String) throws {
        self.configPath = configPath
        stateDir = try TemporaryDirectory(prefix: "chatctl-state")
    }

    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["CHATCTL_CONFIG": configPath, "CHATCTL_STATE_DIR": stateDir.path + "/state"].merging(extra) { $1 }
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], timeout: Double = 60) throws -> ProcessResult {
        try runProcess(productPath("chatctl"), arguments, environment: self.environment(environment),
                       stdin: stdin.map { Data($0.utf8) }, timeout: timeout)
    }

    /// Runs chatctl with these bytes, which need not be text, on its standard input.
    @discardableResult
    func run(_ arguments: [String], input: Data, environment: [String: String] = [:], timeout: Double = 60) throws -> ProcessResult {
        try runProcess(productPath("chatctl"), arguments, environment: self.environment(environment), stdin: input, timeout: timeout)
    }

    /// Runs chatctl inside `confinement` (a file-size limit, no permission override: `Confinement`).
    @discardableResult
    func run(confined confinement: (String, [String]) -> (path: String, arguments: [String]), _ arguments: [String],
             stdin: String? = nil, environment: [String: String] = [:], timeout: Double = 60) throws -> ProcessResult {
        let (path, wrapped) = confinement(productPath("chatctl"), arguments)
        return try runProcess(path, wrapped, environment: self.environment(environment), stdin: stdin.map { Data($0.utf8) }, timeout: timeout)
    }

    /// Starts chatctl beside the test (`listen`, or a `send` fed line by line).
    func background(_ arguments: [String], input: ChildProcess.Input = .null, environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(productPath("chatctl"), arguments, environment: self.environment(environment), input: input)
    }

    /// The saved session's token.
    func savedToken() throws -> String {
        let dir = stateDir.path + "/state"
        guard let name = try FileManager.default.contentsOfDirectory(atPath: dir).first(where: { $0.hasPrefix("session-") && $0.hasSuffix(".json") }),
              let token = jsonObject(try String(contentsOfFile: dir + "/" + name, encoding: .utf8))?["token"] as? String else {
            throw TestSupportError("no saved session with a token in \(dir)")
        }
        return token
    }

    func login(_ login: String, password: String, extra: [String] = [], environment: [String: String] = [:], timeout: Double = 60) throws -> ProcessResult {
        try run(["login", "--login", login, "--password-stdin"] + extra, stdin: password + "\n", environment: environment, timeout: timeout)
    }

    /// When the saved session expires (Unix seconds): the server's expiry header, to the second.
    func savedSessionExpiry() throws -> Double {
        let dir = stateDir.path + "/state"
        guard let name = try FileManager.default.contentsOfDirectory(atPath: dir).first(where: { $0.hasPrefix("session-") && $0.hasSuffix(".json") }),
              let saved = jsonObject(try String(contentsOfFile: dir + "/" + name, encoding: .utf8)),
              let expiresAt = saved["expires_at"] as? Double else {
            throw TestSupportError("no saved session with an expires_at in \(dir)")
        }
        return expiresAt
    }
}

func uniqueLogin(_ prefix: String = "u") -> String {
    prefix + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
}

func jsonObject(_ text: String) -> [String: Any]? {
    guard let line = text.split(separator: "\n").first else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}
