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
        subcommands: [login, status, logout, dialogs, history, send, listen, outbox, search, sync, completion],
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

    static let offline = OptionSpec("offline", help: "Answer from the local cache only; no network.")
    static let limit = OptionSpec("limit", short: "n", kind: .value(metavar: "N"), help: "At most N items.")
    static let dialogArgument = ArgumentSpec("DIALOG", help: "A dialog id, @login (the private dialog with that user) or an exact dialog name.")

    static let dialogs = CommandSpec(
        name: "dialogs",
        abstract: "List your dialogs, newest activity first.",
        options: [
            OptionSpec("type", kind: .value(metavar: "TYPE"), help: "Only dialogs of this type.",
                       completion: .choices(["private", "group", "public"])),
            limit, offline, json,
        ],
        subcommands: [
            CommandSpec(
                name: "create",
                abstract: "Create a private or a group dialog.",
                discussion: "For example: chatctl dialogs create --private @bob, or chatctl dialogs create --group ops --with @alice,@bob",
                options: [
                    OptionSpec("private", kind: .value(metavar: "@LOGIN"), help: "The other user of a private dialog."),
                    OptionSpec("group", kind: .value(metavar: "NAME"), help: "The name of a new group dialog."),
                    OptionSpec("with", kind: .value(metavar: "@A,@B"), help: "The group's other members, comma-separated."),
                    json,
                ]),
        ])

    static let history = CommandSpec(
        name: "history",
        abstract: "Show a dialog's messages, oldest first.",
        discussion: "Reading history does not mark messages read unless --mark-read is given. Times (T) are unix seconds, 2026-11-30, 2026-11-30T08:00:00Z, or an age like 30m, 2h, 7d.",
        arguments: [dialogArgument],
        options: [
            limit,
            OptionSpec("before", kind: .value(metavar: "T"), help: "Only messages sent before T."),
            OptionSpec("since", kind: .value(metavar: "T"), help: "Only messages sent after T."),
            OptionSpec("mark-read", help: "Mark the fetched messages read."),
            offline, json,
        ])

    static let send = CommandSpec(
        name: "send",
        abstract: "Send a message: the arguments, or standard input.",
        discussion: """
            Without TEXT, standard input is sent: all of it as one message, or with             --lines one message per line as each line arrives. Every message goes             to the outbox first and leaves it only when the server has it; exit 3             means some are still there ('chatctl outbox flush' delivers them).
            """,
        arguments: [dialogArgument, ArgumentSpec("TEXT", help: "The message; words are joined with spaces.", isOptional: true, isRepeating: true)],
        options: [
            OptionSpec("lines", help: "One message per line of standard input."),
            OptionSpec("via", kind: .value(metavar: "WAY"), help: "chat or rest (default: rest for one message, chat for --lines).",
                       completion: .choices(["chat", "rest"])),
            json,
        ])

    static let listen = CommandSpec(
        name: "listen",
        abstract: "Print messages from others as they arrive.",
        discussion: """
            Follows the given dialogs (default: all of yours), one line per message \
            or JSON Lines with --json; every message is also cached. Once connected \
            it says 'chatctl: listening to N dialogs' on standard error, which a \
            script can wait for. Reconnects by \
            itself and fills any gap from history, without duplicates. With --exec, \
            runs CMD (through /bin/sh) for each message: the text on its standard \
            input, the fields in CHATCTL_MESSAGE_ID, CHATCTL_DIALOG_ID, \
            CHATCTL_DIALOG_NAME, CHATCTL_SENDER_ID, CHATCTL_SENDER_NAME and \
            CHATCTL_DATE_SENT.
            """,
        arguments: [ArgumentSpec("DIALOG", help: "Dialogs to follow (default: all).", isOptional: true, isRepeating: true)],
        options: [
            OptionSpec("count", kind: .value(metavar: "N"), help: "Exit after N messages."),
            OptionSpec("timeout", kind: .value(metavar: "DURATION"), help: "Exit after this long, e.g. 30s, 5m, 2h."),
            OptionSpec("exec", kind: .value(metavar: "CMD"), help: "Run CMD for each message."),
            json,
        ])

    static let outbox = CommandSpec(
        name: "outbox",
        abstract: "List messages not yet delivered.",
        options: [json],
        subcommands: [
            CommandSpec(name: "flush", abstract: "Deliver the messages in the outbox, each exactly once.", options: [json]),
        ])

    static let search = CommandSpec(
        name: "search",
        abstract: "Search cached messages, best matches first.",
        discussion: "Searches the local cache ('chatctl sync' fills it). QUERY uses SQLite FTS5 syntax: words, \"phrases\", prefix*, OR, NOT.",
        arguments: [ArgumentSpec("QUERY", help: "What to look for.")],
        options: [
            OptionSpec("dialog", kind: .value(metavar: "DIALOG"), help: "Only in this dialog."),
            limit, json,
        ])

    static let sync = CommandSpec(
        name: "sync",
        abstract: "Fill the local cache with dialogs and their recent messages.",
        arguments: [ArgumentSpec("DIALOG", help: "Only these dialogs (default: all).", isOptional: true, isRepeating: true)],
        options: [OptionSpec("limit", short: "n", kind: .value(metavar: "N"), help: "Messages per dialog (default 1000).")])

    static let completion = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script.",
        discussion: "For example: chatctl completion bash > /etc/bash_completion.d/chatctl",
        arguments: [ArgumentSpec("SHELL", help: "bash, zsh or fish.", completion: .choices(["bash", "zsh", "fish"]))])
}
