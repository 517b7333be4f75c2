import Testing
@testable import ChatctlCLI

/// Golden help text: any change to a declaration shows up here as a diff to review.
@Suite struct GoldenHelpTests {
    @Test func rootHelp() {
        let (status, io) = runChatctl(["--help"])
        #expect(status == 0)
        #expect(io.out == Self.root)
    }

    @Test func loginHelp() {
        let (status, io) = runChatctl(["help", "login"])
        #expect(status == 0)
        #expect(io.out == Self.login)
        #expect(runChatctl(["login", "--help"]).1.out == Self.login)
    }

    @Test func chatHelp() {
        let (status, io) = runChatctl(["chat", "--help"])
        #expect(status == 0)
        #expect(io.out == Self.chat)
    }

    @Test func chatOutsideATerminalPointsAtHistoryAndListen() {
        let (status, io) = runChatctl(["chat", "@bob"])
        #expect(status == 2)
        #expect(io.err == "chatctl: chat needs a terminal (standard input and output, TERM not dumb) (to read a dialog use 'chatctl history DIALOG', to follow messages 'chatctl listen')\n")
        let (badMode, usage) = runChatctl(["chat", "--images", "ascii"])
        #expect(badMode == 2)
        #expect(usage.err.hasPrefix("chatctl: invalid value 'ascii' for option '--images'; expected one of: auto, symbols, sixel, kitty, none\n"))
    }

    /// `dialogs add` and `dialogs remove` declare their members once (`MembershipArguments`):
    /// each shows them in its place, with its own verb.
    @Test(arguments: ["add", "remove"])
    func membershipHelp(verb: String) {
        let (status, io) = runChatctl(["dialogs", verb, "--help"])
        #expect(status == 0)
        #expect(io.out.contains("""

            USAGE: chatctl dialogs \(verb) [--json] <DIALOG> <USERS> ...

            ARGUMENTS:
              <DIALOG>                A dialog id, @login or an email address (the private
                                      dialog with that user), or any name 'chatctl dialogs'
                                      shows.
              <USERS> ...             Who to \(verb): @login, comma- or space-separated.

            OPTIONS:
              --json                  Print the updated dialog as JSON.
              -h, --help              Show help information.

            """))
    }

    @Test func meHelp() {
        let (status, io) = runChatctl(["me", "--help"])
        #expect(status == 0)
        #expect(io.out == Self.me)
    }

    @Test func readHelp() {
        let (status, io) = runChatctl(["read", "--help"])
        #expect(status == 0)
        #expect(io.out == Self.read)
    }

    @Test func readWithoutADialogAndMarkingOfflineAreUsageErrors() {
        let (status, io) = runChatctl(["read"])
        #expect(status == 2)
        #expect(io.err == """
            chatctl: missing argument DIALOG
            usage: chatctl read [--no-chat] [--json] <DIALOG>
            examples: chatctl read ops
                      chatctl read @bob --no-chat

            """)
        let (offline, marking) = runChatctl(["history", "@bob", "--mark-read", "--offline"])
        #expect(offline == 2)
        #expect(marking.err.hasPrefix("chatctl: --mark-read tells the server: it cannot be used with --offline\n"))
    }

    static let chat = #"""
OVERVIEW: Chat in a full-screen view: your dialogs, then one dialog live.

Without DIALOG, lists your dialogs (arrows or j/k, / to filter, Enter to open).
In a dialog: messages as they arrive, yours on the right with their state
(sending…, ✓ sent, ✓✓ delivered, ✓✓ highlighted once read), who is typing, and
the connection in the status line. Enter sends (through the outbox, exactly
once, as 'send' does; without a connection it waits there and goes when chat is
back), ^J starts a new line, Up and Down bring back what you sent, PgUp/PgDn and
the mouse wheel scroll (older messages load as you reach the top), Home and End
jump when the input is empty, Tab selects a message: r replies, f forwards, y
copies, e edits and x deletes your own, d saves its attachment here. /help (or
F1) lists every key and command, /quit (or Esc, ^D) ends. Messages on the screen
count as read: their senders are told; a message in another dialog rings the
bell and shows in the window title. The config's chatView section sets avatars,
labels, time format, colours and the compact layout. It opens from the cache
when the server cannot be reached. Needs a terminal: for scripts, use 'history'
and 'listen'.

USAGE: chatctl chat [--images <MODE>] [--no-notify] [<DIALOG>]

ARGUMENTS:
  <DIALOG>                A dialog id, @login or an email address (the private
                          dialog with that user), or any name 'chatctl dialogs'
                          shows.

OPTIONS:
  --images <MODE>         Image previews: auto, symbols, sixel, kitty or none
                          (default: auto).
  --no-notify             No bell, title count or desktop notification for
                          messages in other dialogs.
  -h, --help              Show help information.

\#(globalOptions)

EXAMPLES:
  # Pick a dialog from the list, then chat in it
  chatctl chat

  # Open the dialog with bob at once
  chatctl chat @bob

  # Without image previews
  chatctl chat ops --images none

"""#

    static let read = #"""
OVERVIEW: Mark a dialog's messages read.

Marks every message in DIALOG that others sent and you have not read as read on
the server, looking back at most 10,000 messages, then tells their senders with
a 'displayed' marker over chat. Chat is connected only when there is such a
marker to send; if it cannot be reached, the messages stay marked read and a
warning says so.

USAGE: chatctl read [--no-chat] [--json] <DIALOG>

ARGUMENTS:
  <DIALOG>                A dialog id, @login or an email address (the private
                          dialog with that user), or any name 'chatctl dialogs'
                          shows.

OPTIONS:
  --no-chat               Mark read over REST only; send no markers.
  --json                  Print the dialog's id and how many were marked read,
                          as JSON.
  -h, --help              Show help information.

\#(globalOptions)

EXAMPLES:
  # Mark what others sent in ops read, and tell them
  chatctl read ops

  # Over REST only: no read receipts over chat
  chatctl read @bob --no-chat

  # How many were marked, as JSON
  chatctl read ops --json

"""#

    static let root = #"""
OVERVIEW: A command-line chat client for QuickBlox.

Sign up or log in with 'chatctl login', then use the other commands. The config
file holds the application credentials and endpoints; run 'chatctl-sandbox' for
a local QuickBlox-compatible backend. 'chatctl help --man' prints the manual
page.

USAGE: chatctl [--config <PATH>] [--state-dir <DIR>] [--profile <NAME>]
               [--verbose] [--password-file <PATH>] <subcommand>

OPTIONS:
  --config <PATH>         Config file (default: the profile's, then
                          $CHATCTL_CONFIG, then
                          $XDG_CONFIG_HOME/chatctl/config.json).
  --state-dir <DIR>       Where sessions are kept (default: $CHATCTL_STATE_DIR,
                          then $XDG_STATE_HOME/chatctl).
  -p, --profile <NAME>    Use this account: its config is profiles/NAME.json
                          beside config.json, its session and cache its own
                          (default: $CHATCTL_PROFILE).
  -v, --verbose           Describe each network exchange on stderr (secrets
                          redacted).
  --password-file <PATH>  Read the password from the first line of a file: to
                          log in, or to renew an expired session (me set
                          --password: current, then new, on two lines).
  -V, --version           Show the version.
  -h, --help              Show help information.

SUBCOMMANDS:
  login                   Sign up or log in, then connect to chat.
  status                  Show who is logged in, since when, and until when.
  logout                  End the session on the server and forget it here.
  dialogs                 List your dialogs, newest activity first.
  history                 Show a dialog's messages, oldest first.
  send                    Send a message: the arguments, or standard input.
  forward                 Forward a message to one or more dialogs.
  listen                  Print messages as they arrive.
  chat                    Chat in a full-screen view: your dialogs, then one
                          dialog live.
  outbox                  List messages not yet delivered.
  search                  Search cached messages, best matches first.
  sync                    Fill the local cache with dialogs and their recent
                          messages.
  read                    Mark a dialog's messages read.
  profiles                List the config profiles (--profile NAME), accounts
                          kept side by side, and who is logged in to each.
  me                      Show your user: login, name, email, phone, website,
                          tags, avatar.
  edit                    Replace the text of one of your messages.
  delete                  Delete a message, for you or for everyone.
  users                   List users, or find them by login, full name or email.
  contacts                List your contacts and who asks to be one.
  block                   Block a user: their messages no longer reach you.
  unblock                 Unblock a user, however they were blocked.
  blocked                 List the users you block.
  push                    List your devices that get push notifications.
  download                Save a message's attachments, or a file by its uid.
  export                  Write a whole dialog as Markdown, HTML or JSON Lines.
  cache                   Check the message cache or rebuild it from the server.
  completion              Print a shell completion script.
  version                 Show the version.

EXAMPLES:
  # Log in, or sign up when alice has no account yet (asks on a terminal)
  chatctl login --login alice

  # Send bob a message
  chatctl send @bob 'lunch at noon?'

  # Print messages as they arrive, in all your dialogs
  chatctl listen

  # Chat in the full-screen view
  chatctl chat

  See 'chatctl help <subcommand>' for detailed help.

"""#

    static let login = #"""
OVERVIEW: Sign up or log in, then connect to chat.

Signs up a new login, or logs in when the login is taken (the server answers
422), then connects to chat. The password comes from --password-stdin,
--password-file, $CHATCTL_PASSWORD, or a prompt on the terminal; never from the
command line. On a terminal, what the command line leaves out is asked for as a
login screen does: a new account only after a yes (or --yes; a no asks for the
login again) and its password twice, a wrong password up to three times; then
your dialogs are offered. --token-stdin, --token-file or $CHATCTL_TOKEN start
from an existing session token instead (a CI job's, another app's): the server
says whose session it is, and it is saved as a login's. No password comes with
it: once it expires, log in again.

USAGE: chatctl login [--login <NAME>] [--full-name <NAME>] [--password-stdin]
                     [--no-signup] [--no-chat] [--json] [--yes] [--no-chat-view]
                     [--token-stdin] [--token-file <PATH>]

OPTIONS:
  -l, --login <NAME>      QuickBlox login or email (prompted for on a terminal).
  --full-name <NAME>      Display name: a sign-up's (default: the login), or the
                          new name of an existing account.
  --password-stdin        Read the password from standard input.
  --no-signup             Log in only; never create an account.
  --no-chat               Skip the chat connection.
  --json                  Print JSON instead of text.
  -y, --yes               On a terminal, create a new account without asking
                          first.
  --no-chat-view          On a terminal, do not offer to open your dialogs
                          afterwards.
  --token-stdin           Start from an existing session token, read from
                          standard input (no password).
  --token-file <PATH>     Start from the session token in the first line of a
                          file.
  -h, --help              Show help information.

\#(globalOptions)

EXAMPLES:
  # Log in, or sign up when alice has no account yet (asks on a terminal)
  chatctl login --login alice

  # From a script: the password on standard input
  printf '%s\n' "$PASS" | chatctl login -l alice --password-stdin

  # Log in only, never create an account; the password from CHATCTL_PASSWORD
  CHATCTL_PASSWORD=$(pass show qb) chatctl login -l alice --no-signup

  # Log in without connecting to chat, and print the user as JSON
  chatctl login -l alice --no-chat --json --password-file ~/.alice-pw

  # From a CI job holding a QuickBlox session token
  printf '%s\n' "$QB_TOKEN" | chatctl login --token-stdin

"""#

    /// What every subcommand's help ends with.
    static let me = #"""
OVERVIEW: Show your user: login, name, email, phone, website, tags, avatar.

'chatctl me set' changes it, 'chatctl me delete' removes your account. (The
config profiles chosen with --profile NAME, each an account of its own, are
listed by 'chatctl profiles'.) 'chatctl profile' is the old name of this
command, still understood.

USAGE: chatctl me [--json] [<subcommand>]

OPTIONS:
  --json                  Print your QuickBlox user object.
  -h, --help              Show help information.

\#(globalOptions)

SUBCOMMANDS:
  set                     Change your user: name, email, phone, website, tags,
                          custom data, avatar, password.
  delete                  Delete your account on the server, and its session and
                          cache here.

EXAMPLES:
  # Who you are on the server
  chatctl me

  # Your QuickBlox user object, e.g. for your id
  chatctl me --json

  See 'chatctl help me <subcommand>' for detailed help.

"""#

    static let globalOptions = #"""
GLOBAL OPTIONS:
  --config <PATH>         Config file (default: the profile's, then
                          $CHATCTL_CONFIG, then
                          $XDG_CONFIG_HOME/chatctl/config.json).
  --state-dir <DIR>       Where sessions are kept (default: $CHATCTL_STATE_DIR,
                          then $XDG_STATE_HOME/chatctl).
  -p, --profile <NAME>    Use this account: its config is profiles/NAME.json
                          beside config.json, its session and cache its own
                          (default: $CHATCTL_PROFILE).
  -v, --verbose           Describe each network exchange on stderr (secrets
                          redacted).
  --password-file <PATH>  Read the password from the first line of a file: to
                          log in, or to renew an expired session (me set
                          --password: current, then new, on two lines).
"""#
}
