import BenchmarkData
import MessageCache
#if canImport(Glibc)
import Glibc
#endif

/// The cache's own calls timed in-process over a million synthetic messages (a thousand
/// dialogs of a thousand), best and median of seven: where `make bench`'s command figures
/// stand against the SQLite work under them. Writes the cache at `path` anew.
struct CacheTimings {
    let path: String

    func run() throws {
        unlink(path)
        let clock = ContinuousClock()
        let cache = try ChatCache(path: path)
        let load = try clock.measure { _ = try SyntheticHistory(dialogs: 1000, messagesPerDialog: 1000).load(into: cache) }
        print("populate 1000 dialogs x 1000 messages: \(load)")
        try cache.close()

        func best(_ label: String, _ body: () throws -> Void) rethrows {
            var times: [Duration] = []
            for _ in 0..<7 { times.append(try clock.measure(body)) }
            let sorted = times.sorted()
            print("\(label): best \(sorted[0]) median \(sorted[3])")
        }
        try best("open (migrated)") { try ChatCache(path: path).close() }
        let warm = try ChatCache(path: path)
        try best("dialogs (all 1000)") { _ = try warm.dialogs() }
        try best("history limit 50") { _ = try warm.history(dialogID: SyntheticHistory.dialogID(500), limit: 50) }
        try best("open + history limit 50") {
            let other = try ChatCache(path: path)
            _ = try other.history(dialogID: SyntheticHistory.dialogID(501), limit: 50)
        }
        for query in ["zeta0042", "hello", "deploy outage", "zeta00a1 OR zeta0b00", "\"deploy outage\""] {
            var hits = 0
            try best("search \(query) limit 20") { hits = try warm.search(query, limit: 20).count }
            print("  hits \(hits)")
        }
        try best("search hello in one dialog") {
            _ = try warm.search("hello", dialogID: SyntheticHistory.dialogID(7), limit: 20)
        }
        var status = stat()
        if stat(path, &status) == 0 { print("file size \(Int(status.st_size) / 1_000_000) MB") }
    }
}
