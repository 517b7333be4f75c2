import Foundation
import Testing
import XMPPTransport

@Suite("ObjectID")
struct ObjectIDTests {
    @Test func layoutIsTimeRandomCounter() {
        var generator = ObjectIDGenerator(randomPart: [0xde, 0xad, 0xbe, 0xef, 0x01], counter: 0xFF_FFFE)
        let a = generator.next(unixTime: 0x6560_0000)
        let b = generator.next(unixTime: 0x6560_0000)
        let c = generator.next(unixTime: 0x6560_0001)
        #expect(a.rawValue == "65600000deadbeef01fffffe")
        #expect(b.rawValue == "65600000deadbeef01ffffff")
        #expect(c.rawValue == "65600001deadbeef01000000", "the 3-byte counter wraps")
        #expect(a.timestamp == 0x6560_0000)
    }

    @Test func freshIDsAreWellFormedUniqueAndTimeOrdered() {
        var generator = ObjectIDGenerator()
        let ids = (0..<20_000).map { _ in generator.next() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.rawValue.count == 24)
            #expect(id.rawValue.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        let stamps = ids.map(\.timestamp)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "time prefix never goes back")
        #expect(abs(Int64(stamps[0]) - Int64(unixNow())) <= 2, "stamped with the current unix time")
    }

    @Test func twoGeneratorsDoNotCollide() {
        var x = ObjectIDGenerator(), y = ObjectIDGenerator()
        let xs = Set((0..<1000).map { _ in x.next() }), ys = Set((0..<1000).map { _ in y.next() })
        #expect(xs.isDisjoint(with: ys))
    }

    @Test(arguments: ["", "65600000deadbeef01fffff", "65600000deadbeef01fffffg", "65600000deadbeef01fffffe0"])
    func parsingRejectsMalformed(_ text: String) {
        #expect(ObjectID(text) == nil)
    }

    @Test func parsingLowercases() {
        #expect(ObjectID("65600000DEADBEEF01FFFFFE")?.rawValue == "65600000deadbeef01fffffe")
    }
}

/// Wall-clock unix seconds without Foundation in the test's own logic.
func unixNow() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return ts.tv_sec
}
