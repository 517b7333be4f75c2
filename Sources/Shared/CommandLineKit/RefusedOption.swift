/// An option a command deliberately does not have, and says why when it is
/// given (`login --password`: a password in argv is visible to other users).
/// The parser stops at its name, so a value after it is never read or quoted;
/// help, the man page and completions never show it.
package struct RefusedOption: Sendable, Equatable {
    /// The long name, without dashes.
    package var long: String
    /// The whole error line after the program's name.
    package var message: String

    package init(_ long: String, message: String) {
        self.long = OptionSpec.bareName(long); self.message = message
    }
}
