import CommandLineKit

extension ChatctlSandbox {
    /// chatctl-sandbox(1) beyond the commands: what the tree cannot say.
    static let manual = CommandConfiguration.Manual(date: "2026-11-30", sections: [
            ManPage.Section(title: "Exit status", body: """
                0: stopped by SIGINT or SIGTERM.

                1: could not start (a port in use, an unreadable certificate or database).

                2: a usage error (backup: OUT exists).

                backup: 0 when copied, 1 when the database cannot be read or the copy cannot be written (nothing is left behind).

                A full disk stops nothing: what cannot be stored is answered 507 (REST, storage) or resource-constraint (chat), with one line on standard error a minute.
                """),
            ManPage.Section(title: "Examples", body: """
                chatctl-sandbox --log-level warning > /tmp/sandbox.json &

                CHATCTL_CONFIG=/tmp/sandbox.json chatctl login --login alice

                chatctl-sandbox --https --ws-port 5291 > /tmp/sandbox.json &  (https:// and wss://; clients trust the caFile it names)

                chatctl-sandbox backup --db team.db team-copy.db  (while it runs; chatctl-sandbox --db team-copy.db serves the copy)
                """),
            ManPage.Section(title: "Credentials", body: """
                On loopback (127.0.0.0/8, ::1, localhost) the published sandbox-auth-key, \
                sandbox-auth-secret and sandbox-account-key. On any other --host, each one \
                not given by --auth-key, --auth-secret or --account-key is random, kept in \
                --db (the same after a restart) and printed in the config line; stderr says so.

                Wrong passwords are limited per user (--login-attempts) and per client \
                address off loopback (--login-attempts-per-address): 429 with \
                Retry-After, or SASL temporary-auth-failure. Loopback, which a test \
                suite's clients share, is limited per user only.
                """),
            ManPage.Section(title: "See also", body: "chatctl(1)"),
        ])
}
