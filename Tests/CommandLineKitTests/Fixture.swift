import CommandLineKit

/// A tree shaped like chatctl's, declared once for every test.
enum Fixture {
    static let shells = ["bash", "zsh", "fish"]

    static let root = CommandSpec(
        name: "chatctl",
        abstract: "A command-line QuickBlox chat client.",
        subcommands: [
            CommandSpec(
                name: "login",
                abstract: "Sign up or log in, then connect to chat.",
                discussion: "Signs up with the given login first; if the login is taken (422), logs in with the same password instead.",
                options: [
                    OptionSpec("login", short: "l", kind: .value(metavar: "NAME"), help: "QuickBlox login or email."),
                    OptionSpec("full-name", kind: .value(metavar: "NAME"), help: "Full name to sign up with."),
                    OptionSpec("password-stdin", help: "Read the password from standard input."),
                    OptionSpec("password-file", kind: .value(metavar: "PATH"), help: "Read the password from this file.", completion: .file),
                    OptionSpec("no-signup", help: "Log in only; never create an account."),
                    OptionSpec("no-chat", help: "Do not connect to chat after logging in."),
                    OptionSpec("json", short: "j", help: "Print the session as JSON."),
                ]),
            CommandSpec(
                name: "status",
                abstract: "Show the saved session and chat connection state.",
                options: [OptionSpec("json", help: "Print the status as JSON.")]),
            CommandSpec(name: "logout", abstract: "End the session and forget the saved token."),
            CommandSpec(
                name: "completion",
                abstract: "Print a shell completion script.",
                arguments: [ArgumentSpec("SHELL", help: "Shell to generate for (bash, zsh, fish).", completion: .choices(shells))]),
            CommandSpec(
                name: "send",
                abstract: "Send messages to a dialog.",
                arguments: [
                    ArgumentSpec("DIALOG", help: "Dialog ID."),
                    ArgumentSpec("TEXT", help: "Message texts, one message each.", isOptional: true, isRepeating: true),
                ],
                options: [OptionSpec("attach", kind: .value(metavar: "FILE"), help: "Attach a file.", completion: .file,
                                     isRepeatable: true)]),
            CommandSpec(
                name: "help",
                abstract: "Show help for a command.",
                arguments: [ArgumentSpec("COMMAND", help: "The command to describe.", isOptional: true,
                                         completion: .choices(["login", "status", "logout", "completion", "send"]))]),
        ],
        inheritedOptions: [
            OptionSpec("config", kind: .value(metavar: "PATH"), help: "Configuration file (default: ~/.config/chatctl/config).", completion: .file),
            OptionSpec("state-dir", kind: .value(metavar: "DIR"), help: "Directory for the session and message cache.", completion: .directory),
            OptionSpec("verbose", short: "v", help: "Log HTTP and XMPP traffic to stderr, secrets redacted."),
        ])

    static let parser = CommandLineParser(root: root)
}
