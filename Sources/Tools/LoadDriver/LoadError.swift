/// Why a load run could not go on: one line for the person running the bench.
package struct LoadError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
