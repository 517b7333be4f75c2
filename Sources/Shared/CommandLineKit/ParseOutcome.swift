package enum ParseOutcome: Sendable, Equatable {
    case run(ParsedCommand)
    /// `--help`, `-h` or `help CMD…`: print the help of this command path.
    case help(path: [String])
    case version
    /// `help --man`: print the man page.
    case manual
}
