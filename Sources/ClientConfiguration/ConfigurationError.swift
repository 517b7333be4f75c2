/// The one public error of ClientConfiguration (house style rule 6): the config
/// file cannot be found, read or understood. The message names the file and the
/// key; the hint says what to do. Never quotes a secret from the file.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String
    /// What to do about it, when there is something to say.
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message; self.hint = hint
    }

    public var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
