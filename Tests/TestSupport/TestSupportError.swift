/// Why a test's set-up or wait failed, in words for the test log.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
