// The Sandbox type in-process: run on one thread, stopped from another.
import Foundation
import Testing
import TestSupport
@testable import SandboxServer
import SandboxLogging

/// The REST port in a sandbox's config line.
private func apiPort(_ configLine: String) throws -> Int {
    try #require(configLine.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
}

/// A sandbox made and run on a thread of its own, its one owner, as chatctl-sandbox runs it on
/// its main thread; the test holds only what crosses threads: the stop handle and the config line.
private final class SandboxOnItsThread: Sendable {
    let stopHandle: SandboxStopHandle
    let configLine: String
    private let go = DispatchSemaphore(value: 0)
    /// How long `run()` took, once it returned.
    let ran = ResultBox<Double>()

    init(_ options: SandboxOptions) throws {
        let made = ResultBox<Result<(SandboxStopHandle, String), SandboxFailure>>()
        let go = self.go, ran = self.ran
        Thread.detachNewThread {
            let sandbox: Sandbox
            do throws(SandboxFailure) { sandbox = try Sandbox(options: options) } catch {
                return made.append(.failure(error))
            }
            made.append(.success((sandbox.stopHandle, sandbox.configLine)))
            go.wait()
            let start = ContinuousClock.now
            sandbox.run(installSignalHandlers: false)
            ran.append(seconds(since: start))
        }
        (stopHandle, configLine) = try #require(made.wait(timeout: 20).first, "the sandbox was not made within 20 s").get()
    }

    /// Lets the thread call `run()`.
    func run() { go.signal() }
}

@Suite struct SandboxLifecycleTests {
    static func options() -> SandboxOptions {
        var options = SandboxOptions()
        options.chatEnabled = false
        options.logLevel = .error
        return options
    }

    @Test func stopFromAnotherThreadEndsRun() throws {
        let sandbox = try SandboxOnItsThread(Self.options())
        #expect(sandbox.configLine.hasPrefix("{\"appId\":1,"))
        sandbox.run()
        // An answered request says the loop is running: stop() must end a loop, not pre-empt one.
        let port = try apiPort(sandbox.configLine)
        try waitUntil("the loop to answer a request", timeout: 10) {
            let reply = try rawTCPExchange(host: "127.0.0.1", port: port, bytes: Array("GET /session.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 2)
            return (try? parseHTTPResponse(reply.data)) != nil
        }
        sandbox.stopHandle.stop()
        #expect(sandbox.ran.wait(timeout: 5).first != nil, "run() did not return after stop()")
        sandbox.stopHandle.stop()  // after the loop is gone: harmless
    }

    @Test func stopBeforeRunMakesRunReturnAtOnce() throws {
        let sandbox = try SandboxOnItsThread(Self.options())
        let port = try apiPort(sandbox.configLine)
        #expect(TCPConnection.canConnect(host: "127.0.0.1", port: port), "listening from init on")
        sandbox.stopHandle.stop()
        sandbox.run()
        let took = try #require(sandbox.ran.wait(timeout: 5).first, "run() did not return after an earlier stop()")
        #expect(took < 1, "run() took \(took) s")
        // What stop() promised: the loop is gone and its port closed.
        #expect(!TCPConnection.canConnect(host: "127.0.0.1", port: port), "the REST port still accepts connections")
        sandbox.stopHandle.stop()  // after the loop is gone: harmless
    }

    @Test func portInUseIsAnErrorNotACrash() throws {
        var options = SandboxOptions()
        options.chatEnabled = false
        let first = try Sandbox(options: options)
        let port = try apiPort(first.configLine)
        options.apiPort = port
        #expect(throws: SandboxFailure.self) { try Sandbox(options: options) }
    }
}
