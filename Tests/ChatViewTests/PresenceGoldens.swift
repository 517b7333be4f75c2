/// The presence scenes' golden screens (PresenceScenes.swift; trailing blanks trimmed). A change here
/// is a change of what users see: look at it before accepting it (a failing test writes the new screen to paste: GoldenScreen.swift).
enum PresenceGoldens {
    static let lastSeen80x24 = """
     bob · private · last seen 5 min ago · connected           ✉ 2 unread elsewhere
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

    static let online40x12 = """
     bob · online · connected           ✉ 2
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

    static let group80x24 = """
     ops · group · 3 members · 2 online · connected
    ────────────────────────────────────────────────────────────────────────────────














                                    ── Mon 30 Nov ──
     bob
     ╭──────────────╮
     │ standup in 5 │
     ╰──────────────╯
     16:46
    ────────────────────────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let group40x12 = """
     ops · 3 members · 2 online · connected
    ────────────────────────────────────────


                ── Mon 30 Nov ──
     bob
     ╭──────────────╮
     │ standup in 5 │
     ╰──────────────╯
     16:46
    ────────────────────────────────────────
    >                            Tab select
    """

    static let dialogs80x24 = """
     chatctl · 4 dialogs · reconnecting in 3s
    ────────────────────────────────────────────────────────────────────────────────
    ●bob                      private      did the deploy finish?             16:51
     ops                      group      2 anyone there?                      15:51
     李雷                     private   12 明天见                            27 Nov
     a group with a rather l… public       a last message that is much too …   2025
















    ────────────────────────────────────────────────────────────────────────────────
     ↑↓ move · Enter open · / filter · q quit
    """

    static let dialogs40x12Ascii = """
     chatctl - reconnecting in 3s
    ----------------------------------------
    *bob                 did the de~  16:51
     ops               2 anyone the~  15:51
     ??               12 ???         27 Nov
     a group with ~      a last mes~   2025




    ----------------------------------------
     Enter open - / filter - q quit
    """
}
