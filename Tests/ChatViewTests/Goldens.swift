/// The golden screens (`ScreenRenderer` snapshots, trailing blanks trimmed). A change here is a change
/// of what users see: look at it before accepting it (a failing test writes the new screen to paste: GoldenScreen.swift).
enum Goldens {
    static let deploy80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────
     17:51
                                                  ╭───────────────────────────────╮
                                                  │ fixed it, the cache was stale │
                                                  ╰───────────────────────────────╯
                                                                           17:53 ✓✓
                                    ── Mon 30 Nov ──
     bob
     ╭────────────────────────╮
     │ did the deploy finish? │
     ╰────────────────────────╯
     16:49
                                    ╭─────────────────────────────────────────────╮
                                    │ yes, all green. logs in the thread, and the │
                                    │ canary has been at 100% for an hour now     │
                                    ╰─────────────────────────────────────────────╯
                                                                           16:51 ✓✓
                                                   ╭──────────────────────────────╮
                                                   │ what about the db migration? │
                                                   ╰──────────────────────────────╯
                                                                     16:51 sending…
    ─ bob is typing… ───────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let deploy40x12 = """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
                      │ what about the db │
                      │ migration?        │
                      ╰───────────────────╯
                             16:51 sending…
                                   ╭──────╮
                                   │ ping │
                                   ╰──────╯
                 16:51 not sent: timed out…
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """

    static let wide = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────









                                    ── Mon 30 Nov ──
     bob
     ╭──────────────────────────────────────────────────╮
     │ 你好，世界！这是一条很长的中文消息，用来测试换行 │
     │ 是否正确。                                       │
     ╰──────────────────────────────────────────────────╯
     16:50
                                         ╭────────────────────────────────────────╮
                                         │ 👨👩👧 family, 🇫🇷 flag, 👍 ok, café, é │
                                         ╰────────────────────────────────────────╯
                                                                            16:51 ✓
    ────────────────────────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let ascii = """
     bob - private - connected                                   2 unread elsewhere
    --------------------------------------------------------------------------------
     | the dashboard looks quiet |
     +---------------------------+
     16:50
                                    +---------------------------------------------+
                                    | yes, all green. logs in the thread, and the |
                                    | canary has been at 100% for an hour now     |
                                    +---------------------------------------------+
                                                                    16:51 delivered
                                                                        +---------+
                                                                        | thanks! |
                                                                        +---------+
                                                                         16:51 sent
                                                   +------------------------------+
                                                   | what about the db migration? |
                                                   +------------------------------+
                                                                   16:51 sending...
                                                                           +------+
                                                                           | ping |
                                                                           +------+
                                               16:51 not sent: timed out - retrying
    - bob is typing... -------------------------------------------------------------
    >                                                Tab select - /attach - F1 help
    """

    static let group = """
     ops · group · connected
    ────────────────────────────────────────────────────────────────────────────────
                                    ── Mon 30 Nov ──
     bob
     ╭──────────────╮
     │ standup in 5 │
     ╰──────────────╯
     16:46
     carol
     ╭─────────────────────────────────╮
     │ [image] screenshot.png · 240 KB │
     │ █████████████████░░░░░░░░  71 % │
     ╰─────────────────────────────────╯
     16:47
     ╭──────────────────╮
     │ that's the error │
     ╰──────────────────╯
     16:47
                                                                          ╭───────╮
                                                                          │ on it │
                                                                          ╰───────╯
                                                                           16:49 ✓✓
    ────────────────────────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let dialogs80x24 = """
     chatctl · 4 dialogs · reconnecting in 3s
    ────────────────────────────────────────────────────────────────────────────────
     bob                      private      did the deploy finish?             16:51
     ops                      group      2 anyone there?                      15:51
     李雷                     private   12 明天见                            27 Nov
     a group with a rather l… public       a last message that is much too …   2025
















    ────────────────────────────────────────────────────────────────────────────────
     ↑↓ move · Enter open · / filter · q quit
    """

    static let dialogs40x12 = """
     chatctl · reconnecting in 3s
    ────────────────────────────────────────
     bob                 did the de…  16:51
     ops               2 anyone the…  15:51
     李雷             12 明天见      27 Nov
     a group with …      a last mes…   2025




    ────────────────────────────────────────
     Enter open · / filter · q quit
    """
}
