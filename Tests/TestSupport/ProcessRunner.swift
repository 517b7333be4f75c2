import Foundation

/// Where `swift build` put the executables: next to the running test binary.
public let productsDirectory: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    // The test binary may sit inside an .xctest bundle directory on some layouts.
    while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("chatctl").path) {
        if dir.lastPathComponent == ".build" { break }
        dir = dir.deletingLastPathComponent()
    }
    return dir
}()

public func productPath(_ name: String) -> String {
    productsDirectory.appendingPathComponent(name).path
}

/// Writing to a child that already exited must be an error (EPIPE), not the
/// death of the whole test process.
public let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var timedOut: Bool
}

/// Runs a program to completion (killed after `timeout` seconds), feeding `stdin`.
/// Without `stdin`, the child's standard input is /dev/null (never a terminal).
public func runProcess(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                       stdin: Data? = nil, timeout: Double = 60) throws -> ProcessResult {
    ignoreSIGPIPE
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for key in env.keys where key.hasPrefix("CHATCTL_") || key.hasPrefix("XDG_") { env[key] = nil }
    env["NO_COLOR"] = "1"
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let outPipe = Pipe(), errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    let inPipe = Pipe()
    if stdin != nil { process.standardInput = inPipe } else { process.standardInput = FileHandle(forReadingAtPath: "/dev/null") }

    let outData = LockedData(), errData = LockedData()
    let group = DispatchGroup()
    for (pipe, sink) in [(outPipe, outData), (errPipe, errData)] {
        group.enter()
        DispatchQueue.global().async {
            sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
    }
    try process.run()
    if let stdin {
        DispatchQueue.global().async {
            // The child may exit without reading (e.g. it rejected its arguments): EPIPE is fine.
            try? inPipe.fileHandleForWriting.write(contentsOf: stdin)
            try? inPipe.fileHandleForWriting.close()
        }
    }
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    while process.isRunning {
        if Date() > deadline { timedOut = true; kill(process.processIdentifier, SIGKILL); break }
        usleep(2_000)
    }
    process.waitUntilExit()
    group.wait()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outData.get(), as: UTF8.self),
                         stderr: String(decoding: errData.get(), as: UTF8.self),
                         timedOut: timedOut)
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A directory removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String
    public init(prefix: String = "chatctl-test") throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
