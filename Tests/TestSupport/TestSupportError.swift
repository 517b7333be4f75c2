/// Why a test's set-up or wait failed, in words for the test log.
package struct TestSupportError: Error, CustomStringConvertible {
    package var description: String
    package init(_ d: String) { description = d }
}
