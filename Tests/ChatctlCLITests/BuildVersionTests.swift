import ChatctlCLI
import Testing

/// What a build says it is (Sources/Shims/CBuildInfo): the tests run a plain `swift build`,
/// which has no stamp from `make release`, so the defaults show.
@Suite struct BuildVersionTests {
    @Test func aPlainBuildSaysItIsADevelopmentBuild() {
        #expect(Chatctl.version == "0.1.0-dev")
        #expect(Chatctl.commit == "unknown")
    }

    @Test func theDetailsNameTheCommitAndTheCompilersSwift() {
        #expect(Chatctl.buildDetails == ["commit unknown", "Swift \(Chatctl.swiftVersion)"])
        #expect(Chatctl.swiftVersion.hasPrefix("6."))
    }
}
