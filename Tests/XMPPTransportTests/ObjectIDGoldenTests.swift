import Testing
import XMPPTransport
import TestSupport

/// The client's ObjectIds against the table the sandbox's generator passes too.
@Suite struct ObjectIDGoldenTests {
    @Test(arguments: GoldenVectors.objectIdTimes)
    func leadingFourBytesAreTheCreationTime(_ vector: GoldenVectors.ObjectIdTime) {
        var generator = ObjectIDGenerator()
        let id = generator.next(unixTime: vector.unixTime)
        #expect(id.rawValue.hasPrefix(vector.prefix))
        #expect(id.timestamp == vector.unixTime)
        #expect(GoldenVectors.isLowercaseObjectId(id.rawValue))
    }

    @Test(arguments: GoldenVectors.objectIdCandidates)
    func recognisesObjectIds(_ text: String, _ isObjectId: Bool) {
        #expect((ObjectID(text) != nil) == isObjectId)
    }

    @Test func oneGeneratorsIdsAreWellFormedDistinctAndIncreasing() {
        var generator = ObjectIDGenerator()
        let ids = (0..<GoldenVectors.objectIdRunLength).map { _ in generator.next().rawValue }
        #expect(ids.allSatisfy(GoldenVectors.isLowercaseObjectId))
        #expect(Set(ids).count == ids.count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "each id sorts after the one before")
        #expect(abs(Int(ObjectID(ids[0])!.timestamp) - unixNow()) <= 2, "stamped with the current time")
    }

    /// The counter (the last 3 bytes) starts at random but in its lower half, so a run
    /// of ids never wraps around to smaller ones within one second.
    @Test func counterStartsInItsLowerHalf() {
        let starts = (0..<2_000).map { _ in
            var generator = ObjectIDGenerator()
            return UInt32(generator.next().rawValue.suffix(6), radix: 16)!
        }
        #expect(starts.allSatisfy { $0 < 0x80_0000 })
        #expect(Set(starts).count > 1_900, "still random")
    }
}
