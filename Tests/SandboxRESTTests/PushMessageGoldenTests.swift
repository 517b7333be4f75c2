// The sandbox's side of the push message twins (docs/protocol.md §14): the universal form of
// each golden vector is kept as given, and put in APNs's and GCM's form as chatctl writes them.
import Testing
import TestSupport
import SandboxStorage
@testable import SandboxREST

@Suite struct PushMessageGoldenTests {
    @Test(arguments: GoldenVectors.pushMessages)
    func universalTextIsPutInEachPlatformsForm(vector: GoldenVectors.PushMessage) throws {
        #expect(try PushMessage.stored(vector.universal, channel: nil) == vector.universal)
        #expect(try PushMessage.stored(vector.universal, channel: .apns) == vector.apns)
        #expect(try PushMessage.stored(vector.universal, channel: .gcm) == vector.gcm)
        // A message already in a platform's form is kept as it is.
        #expect(try PushMessage.stored(vector.apns, channel: .apns) == vector.apns)
        #expect(try PushMessage.stored(vector.gcm, channel: .gcm) == vector.gcm)
    }

    @Test func cgiEscapingIsRubysCGIEscape() {
        #expect(PushMessage.cgiEscape("a-z_A.Z~0 9*'()!&=+%/") == "a-z_A.Z~0+9%2A%27%28%29%21%26%3D%2B%25%2F")
        #expect(PushMessage.cgiEscape("é") == "%C3%A9")
    }
}
