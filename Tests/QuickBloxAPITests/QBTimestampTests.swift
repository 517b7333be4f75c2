#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import QuickBloxAPI

@Suite struct QBTimestampTests {
    @Test(arguments: [
        ("2018-07-11 17:33:09 +0000", 1531330389.0),
        // The form the service was seen to send (docs/protocol.md §2).
        ("2016-04-11 16:29:04 UTC", 1460392144.0),
        ("2016-04-11 16:29:04 GMT", 1460392144.0),
        ("2018-07-11 19:33:09 +0200", 1531330389.0),
        ("2018-07-11T17:33:09Z", 1531330389.0),
        ("2019-09-08T17:24:11Z", 1567963451.0),
        ("2019-09-08T17:24:11.500Z", 1567963451.5),
        ("2019-09-08T19:24:11+02:00", 1567963451.0),
    ])
    func parses(text: String, expected: Double) {
        #expect(QBTimestamp.parse(text) == Date(timeIntervalSince1970: expected))
    }

    @Test(arguments: ["", "yesterday", "2018-13-11 17:33:09 +0000", "2018-07-11 17:33", "2018-07-11 17:33:09 +0000 extra",
                        "2016-04-11 16:29:04 UTC+1", "2016-04-11 16:29:04 PST", "2016-04-11 16:29:04 utc"])
    func rejects(text: String) {
        #expect(QBTimestamp.parse(text) == nil)
    }
}
