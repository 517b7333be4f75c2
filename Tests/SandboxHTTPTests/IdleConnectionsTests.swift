// The caps on connections not of use yet: past one, the oldest idle connection
// makes room, never the newcomer, and connections that became busy are never counted.
import Testing
import SandboxHTTP

@Suite struct IdleConnectionsTests {
    @Test func pastTheCapTheOldestOfThatAddressMakesRoom() {
        var idle = IdleConnections<Int>(perAddress: 3)
        for key in 1...3 { #expect(idle.becameIdle(key, address: "127.0.0.1").isEmpty) }
        #expect(idle.becameIdle(10, address: "10.0.0.1").isEmpty, "another address has caps of its own")
        #expect(idle.becameIdle(4, address: "127.0.0.1") == [1])
        #expect(idle.becameIdle(5, address: "127.0.0.1") == [2])
        #expect(!idle.contains(1) && idle.contains(4) && idle.contains(5) && idle.contains(10))
        #expect(idle.count(from: "127.0.0.1") == 3)
    }

    @Test func busyConnectionsDoNotCountAndAnIdleOneAgainIsTheYoungest() {
        var idle = IdleConnections<Int>(perAddress: 2)
        _ = idle.becameIdle(1, address: "a")
        _ = idle.becameIdle(2, address: "a")
        idle.remove(1)   // logged in, or being served
        #expect(idle.becameIdle(3, address: "a").isEmpty)
        // 2 answered a request and waits again: 3 is now the oldest.
        #expect(idle.becameIdle(2, address: "a").isEmpty)
        #expect(idle.becameIdle(4, address: "a") == [3])
    }

    @Test func theOverallCapTakesTheOldestOfAnyAddress() {
        var idle = IdleConnections<String>(perAddress: 10, overall: 3)
        _ = idle.becameIdle("a1", address: "a")
        _ = idle.becameIdle("b1", address: "b")
        _ = idle.becameIdle("c1", address: "c")
        #expect(idle.becameIdle("d1", address: "d") == ["a1"])
        #expect(idle.count == 3)
    }

    /// Every port logs a flood by one rule: its first eviction, then the first of each
    /// hundred; a connection admitted without evicting ends the flood.
    @Test func aFloodIsWorthALogLineAtItsStartAndEachHundred() {
        var idle = IdleConnections<Int>(perAddress: 1)
        _ = idle.becameIdle(0, address: "a")
        #expect(idle.evictionsToLog == nil, "nothing evicted")
        var logged: [Int] = []
        for key in 1...250 {
            _ = idle.becameIdle(key, address: "a")
            if let count = idle.evictionsToLog { logged.append(count) }
        }
        #expect(logged == [1, 100, 200])
        #expect(idle.evictedInARow == 250)
        _ = idle.becameIdle(1000, address: "b")
        #expect(idle.evictedInARow == 0 && idle.evictionsToLog == nil, "a newcomer that evicted nobody ends the flood")
        _ = idle.becameIdle(251, address: "a")
        #expect(idle.evictionsToLog == 1, "the next flood is told from its start")
    }

    @Test func aCapOfOneKeepsTheNewcomer() {
        var idle = IdleConnections<Int>(perAddress: 1, overall: 1)
        _ = idle.becameIdle(1, address: "a")
        #expect(idle.becameIdle(2, address: "a") == [1])
        #expect(idle.contains(2))
    }
}
