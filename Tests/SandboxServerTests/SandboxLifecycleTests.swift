// The Sandbox type in-process: run on one thread, stopped from another.
import Foundation
import Testing
@testable import SandboxServer

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
        usleep(100_000)
        sandbox.stop()
        #expect(finished.wait(timeout: .now() + 5) == .success, "run() did not return after stop()")
        sandbox.stop()  // after the loop is gone: harmless
    }

    @Test func stopBeforeRunMakesRunReturnAtOnce() throws {
        var options = SandboxOptions()
        options.chatEnabled = false
        let sandbox = try Sandbox(options: options)
        sandbox.stop()
        sandbox.run(installSignalHandlers: false)
    }

    @Test func portInUseIsAnErrorNotACrash() throws {
        var options = SandboxOptions()
        options.chatEnabled = false
        let first = try Sandbox(options: options)
        let port = try #require(first.configLine.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        options.apiPort = port
        #expect(throws: SandboxError.self) { try Sandbox(options: options) }
    }
}
