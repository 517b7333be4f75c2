// Builds a large message cache for `make bench` (not installed): the
// dialogs/history/search figures are measured against what this writes.
// Usage: BenchFixture CACHE_PATH DIALOGS MESSAGES_PER_DIALOG
//        BenchFixture --timings CACHE_PATH   (`make bench-cache`: the cache's own
//        calls timed in-process, without chatctl around them; figures only, no verdict)
import BenchmarkData
import MessageCache
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, _ code: Int32) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(code)
}

let arguments = CommandLine.arguments
do {
    if arguments.count == 3, arguments[1] == "--timings" {
        try CacheTimings(path: arguments[2]).run()
        exit(0)
    }
    guard arguments.count == 4, let dialogs = Int(arguments[2]), let perDialog = Int(arguments[3]), dialogs >= 0, perDialog >= 0 else {
        fail("usage: BenchFixture CACHE_PATH DIALOGS MESSAGES_PER_DIALOG | BenchFixture --timings CACHE_PATH", 2)
    }
    let cache = try ChatCache(path: arguments[1])
    let count = try SyntheticHistory(dialogs: dialogs, messagesPerDialog: perDialog).load(into: cache)
    try cache.close()
    // The number added and the id of the first dialog, for the bench to query.
    print(count, SyntheticHistory.dialogID(0))
} catch {
    fail("BenchFixture: \(error)", 1)
}
