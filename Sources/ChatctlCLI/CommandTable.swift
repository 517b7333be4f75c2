import CommandLineKit

/// Every command and option, declared once (house style rule 8): parsing,
/// help, usage errors, completions and the man page all come from here.
enum CommandTable {
    static let json = OptionSpec("json", help: "Print JSON instead of text.")

    static let root = CommandSpec(
        name: "chatctl",
        abstract: "A command-line chat client for QuickBlox.",
        discussion: """
            Sign up or log in with 'chatctl login', then use the other commands. \
            The config file holds the application credentials and endpoints; \
            run 'chatctl-sandbox' for a local QuickBlox-compatible backend.
            """,
        subcommands: [login, status, logout, completion],
        inheritedOptions: [
            OptionSpec("config", kind: .value(metavar: "PATH"),
                       help: "Config file (default: $CHATCTL_CONFIG, then $XDG_CONFIG_HOME/chatctl/config.json).",
                       completion: .file),
            OptionSpec("state-dir", kind: .value(metavar: "DIR"),
                       help: "Where sessions are kept (default: $CHATCTL_STATE_DIR, then $XDG_STATE_HOME/chatctl).",
                       completion: .directory),
            OptionSpec("verbose", short: "v", help: "Describe each network exchange on stderr (secrets redacted)."),
        ])

    static let login = CommandSpec(
        name: "login",
        abstract: "Sign up or log in, then connect to chat.",
        discussion: """
            Signs up a new login, or logs in when the login is taken (the \
            server answers 422), then connects to chat. The password comes from \
            --password-stdin, --password-file, $CHATCTL_PASSWORD, or a prompt \
            on the terminal; never from the command line.
            """,
        options: [
            OptionSpec("login", short: "l", kind: .value(metavar: "NAME"), help: "QuickBlox login or email (prompted for on a terminal)."),
            OptionSpec("full-name", kind: .value(metavar: "NAME"), help: "Display name for a sign-up (default: the login)."),
            OptionSpec("password-stdin", help: "Read the password from standard input."),
            OptionSpec("password-file", kind: .value(metavar: "PATH"), help: "Read the password from the first line of a file.", completion: .file),
            OptionSpec("no-signup", help: "Log in only; never create an account."),
            OptionSpec("no-chat", help: "Skip the chat connection."),
            json,
        ])

    static let status = CommandSpec(
        name: "status",
        abstract: "Show who is logged in, since when, and until when.",
        discussion: "Exits 4 when not logged in or when the session has expired.",
        options: [json])

    static let logout = CommandSpec(
        name: "logout",
        abstract: "End the session on the server and forget it here.")

    static let completion = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script.",
        discussion: "For example: chatctl completion bash > /etc/bash_completion.d/chatctl",
        arguments: [ArgumentSpec("SHELL", help: "bash, zsh or fish.", completion: .choices(["bash", "zsh", "fish"]))])
}
