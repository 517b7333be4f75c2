import CommandLineKit

extension Chatctl {
    /// chatctl(1) beyond the commands: what the tree cannot say.
    static let manual = CommandConfiguration.Manual(date: "2026-11-30", sections: [
            ManPage.Section(title: "Exit status", body: """
                0: success.

                1: another failure, e.g. the TLS certificate is not trusted or the server refused the application.

                2: a usage error or invalid input (a bad option, login or config file).

                3: some messages were not delivered; they are in the outbox ('chatctl outbox flush'). A message the server refused for good (not an occupant, no such dialog) is not among them: it is reported with the server's reason and not kept.

                4: authentication: bad credentials, not logged in, or the session expired and there was no password to renew it (one made from a token says the session token has expired); login with a session token the server does not know, or that belongs to no user.

                75: a temporary failure: cannot connect, a timeout, a 5xx or 429 answer after bounded retries.

                130: interrupted.
                """),
            ManPage.Section(title: "Environment", body: """
                CHATCTL_CONFIG: the config file when --config is not given.

                CHATCTL_STATE_DIR: the state directory when --state-dir is not given.

                CHATCTL_PROFILE: the profile when --profile is not given.

                CHATCTL_PASSWORD: the password for login, and for renewing an expired session silently (--password-file comes first).

                CHATCTL_TOKEN: a QuickBlox session token for login to start from, when the command line asks for no other way (--token-stdin, --token-file, --login, --password-stdin, --password-file). Read by login only, which saves its session; never printed.

                CHATCTL_NETWORK_TIMEOUT: for tests only: seconds each REST request and each chat connect may take (default 30 and 15).

                CHATCTL_SESSION_REFRESH_EVERY: for tests and benchmarks only: listen and send --lines refresh their session at least this often (seconds).

                XDG_CONFIG_HOME, XDG_STATE_HOME: where the config and state live by default.

                NO_COLOR: set to anything but the empty string, never colour the output.

                CHATCTL_PAGER, PAGER: the pager for a long history on a terminal (default less -R; LESS=FRX when LESS is unset); empty or cat for none.
                """),
            ManPage.Section(title: "Files", body: """
                $XDG_CONFIG_HOME/chatctl/config.json (~/.config/chatctl/config.json): the application's credentials and endpoints.

                $XDG_CONFIG_HOME/chatctl/profiles/NAME.json: the config of profile NAME.

                $XDG_STATE_HOME/chatctl (~/.local/state/chatctl): one session-*.json per config, a cache-*.sqlite message cache per user, and endpoints-*.json for a config whose endpoints were looked up by its account key; the files are mode 0600 in a 0700 directory. A profile's own are in profiles/NAME inside it.
                """),
            ManPage.Section(title: "See also", body: "chatctl-sandbox(1)"),
        ])
}
