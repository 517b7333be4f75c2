/// The one public error of ClientConfiguration (house style rule 6): the config
/// file cannot be found, read or understood. The message names the file and the
/// key; the hint says what to do. Never quotes a secret from the file.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    package var message: String
    /// What to do about it, when there is something to say.
    package var hint: String?

    package init(_ message: String, hint: String? = nil) {
        self.message = message; self.hint = hint
    }

    package var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
