/// Why the sandbox could not start.
package struct SandboxError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
