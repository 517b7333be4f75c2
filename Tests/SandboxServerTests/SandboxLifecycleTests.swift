// The Sandbox type in-process: run on one thread, stopped from another.
import Foundation
import Testing
import TestSupport
@testable import SandboxServer

/// The REST port in a sandbox's config line.
private func apiPort(_ sandbox: Sandbox) throws -> Int {
    try #require(sandbox.configLine.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
}

@Suite struct SandboxLifecycleTests {
    @Test func stopFromAnotherThreadEndsRun() throws {
        var options = SandboxOptions()
        options.chatEnabled = false
        options.logLevel = .error
        let sandbox = try Sandbox(options: options)
        #expect(sandbox.configLine.hasPrefix("{\"appId\":1,"))
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            sandbox.run(installSignalHandlers: false)
            finished.signal()
        }
        thread.start()
        // An answered request says the loop is running: stop() must end a loop, not pre-empt one.
        let port = try apiPort(sandbox)
        try waitUntil("the loop to answer a request", timeout: 10) {
            let reply = try rawTCPExchange(host: "127.0.0.1", port: port, bytes: Array("GET /session.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 2)
            return (try? parseHTTPResponse(reply.data)) != nil
        }
        sandbox.stop()
        #expect(finished.wait(timeout: .now() + 5) == .success, "run() did not return after stop()")
        sandbox.stop()  // after the loop is gone: harmless
    }

    @Test func stopBeforeRunMakesRunReturnAtOnce() throws {
        var options = SandboxOptions()
        options.chatEnabled = false
        options.logLevel = .error
        let sandbox = try Sandbox(options: options)
        let port = try apiPort(sandbox)
        #expect(TCPConnection.canConnect(host: "127.0.0.1", port: port), "listening from init on")
        sandbox.stop()
        // On a thread of its own, so that a run() that never returns fails the test, not hangs it.
        let returned = ResultBox<Double>()
        Thread.detachNewThread {
            let start = ContinuousClock.now
            sandbox.run(installSignalHandlers: false)
            returned.append(seconds(since: start))
        }
        let took = try #require(returned.wait(timeout: 5).first, "run() did not return after an earlier stop()")
        #expect(took < 1, "run() took \(took) s")
        // What stop() promised: the loop is gone and its port closed.
        #expect(!TCPConnection.canConnect(host: "127.0.0.1", port: port), "the REST port still accepts connections")
        sandbox.stop()  // after the loop is gone: harmless
    }

    @Test func portInUseIsAnErrorNotACrash() throws {
        var options = SandboxOptions()
        options.chatEnabled = false
        let first = try Sandbox(options: options)
        let port = try apiPort(first)
        options.apiPort = port
        #expect(throws: SandboxError.self) { try Sandbox(options: options) }
    }
}
