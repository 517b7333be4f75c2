import Dispatch
import Synchronization
import Testing
import Threads

/// The one worker-thread type: commands in order, a sleeping thread woken by a post,
/// wake-ups taken with their commands, a bounded join.
@Suite struct WorkerThreadTests {
    /// Commands posted while the thread sleeps reach it, in order, and `stop` ends it.
    @Test func aSleepingThreadTakesWhatIsPostedInOrder() throws {
        let seen = Mutex<[Int]>([])
        let worker = try #require(WorkerThread<Int?>.start { worker in
            while true {
                worker.wait()
                for command in worker.take() {
                    guard let command else { return }
                    seen.withLock { $0.append(command) }
                }
            }
        })
        for n in 1...100 { worker.post(n) }
        worker.post(nil)
        #expect(worker.join(seconds: 10))
        #expect(seen.withLock { $0 } == Array(1...100))
        #expect(worker.join(seconds: 0), "a second join returns at once")
    }

    /// After `take`, a bounded `wait` sleeps its time: the wake-ups of what was taken are
    /// not left behind to end it early, once for each.
    @Test func takenCommandsLeaveNoWakeUpsBehind() throws {
        let slept = Mutex<[Duration]>([])
        let ready = DispatchSemaphore(value: 0)
        let worker = try #require(WorkerThread<Int>.start { worker in
            ready.wait()
            #expect(worker.take() == [1, 2, 3])
            for _ in 0..<3 {
                let start = ContinuousClock.now
                worker.wait(seconds: 0.05)
                slept.withLock { $0.append(.now - start) }
            }
        })
        for n in 1...3 { worker.post(n) }
        ready.signal()
        #expect(worker.join(seconds: 10))
        #expect(slept.withLock { $0 }.allSatisfy { $0 >= .milliseconds(45) }, "\(slept.withLock { $0 })")
    }

    /// A thread that does not end in time is left to end by itself; the owner goes on.
    @Test func aJoinIsBounded() throws {
        let release = DispatchSemaphore(value: 0)
        let worker = try #require(WorkerThread<Int>.start { _ in release.wait() })
        #expect(!worker.join(seconds: 0.05))
        release.signal()
    }
}
