import Testing
import SandboxClock
import SandboxStorage
import TestSupport

/// The sandbox's ObjectIds against the table the client's ObjectIDGenerator passes too.
@Suite struct ObjectIdGeneratorGoldenTests {
    @Test(arguments: GoldenVectors.objectIdTimes)
    func leadingFourBytesAreTheCreationTime(_ vector: GoldenVectors.ObjectIdTime) {
        var generator = ObjectIdGenerator()
        let id = generator.next(at: Double(vector.unixTime) + 0.75)
        #expect(id.hasPrefix(vector.prefix), "the time is rounded down to whole seconds")
        #expect(GoldenVectors.isLowercaseObjectId(id))
    }

    @Test(arguments: GoldenVectors.objectIdCandidates)
    func recognisesObjectIds(_ text: String, _ isObjectId: Bool) {
        #expect(ObjectIdGenerator.isValid(text) == isObjectId)
    }

    @Test func oneGeneratorsIdsAreWellFormedDistinctAndIncreasing() {
        var generator = ObjectIdGenerator()
        let ids = (0..<GoldenVectors.objectIdRunLength).map { _ in generator.next(at: SandboxTime.now()) }
        #expect(ids.allSatisfy(GoldenVectors.isLowercaseObjectId))
        #expect(Set(ids).count == ids.count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "each id sorts after the one before")
        let stamped = Double(UInt32(ids[0].prefix(8), radix: 16)!)
        #expect(abs(stamped - SandboxTime.now()) <= 2, "stamped with the current time")
    }
}
