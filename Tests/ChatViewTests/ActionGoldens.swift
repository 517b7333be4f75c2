/// Golden screens of replies and forwards (MessageActionsTests), trailing blanks trimmed. A change
/// here is a change of what users see: look at it before accepting it (a failing test writes the new screen to paste: GoldenScreen.swift).
enum ActionGoldens {
    static let replies80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────
     bob
     ╭────────────────────────╮
     │ did the deploy finish? │
     ╰────────────────────────╯
     16:48
                                                       ╭──────────────────────────╮
                                                       │ ↪ bob                    │
                                                       │   did the deploy finish? │
                                                       │ yes, all green           │
                                                       ╰──────────────────────────╯
                                                                           16:49 ✓✓
     bob
     ╭───────────────────────────────────────────────╮
     │ ↪ alice                                       │
     │   yes, all green. logs in the thread, and the │
     │   canary has been at 100% for an hour now…    │
     │ great, then I close the ticket                │
     ╰───────────────────────────────────────────────╯
     16:50
    ────────────────────────────────────────────────────────────────────────────────
    ↪ replying to bob: great, then I close the ticket                    Esc cancels
    > thanks                                          Enter send reply · Esc cancel
    """

    static let replies40x12 = """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
     ╭────────────────────────╮
     │ ↪ alice                │
     │   yes, all green. logs │
     │   in the thread, and…  │
     │ great, then I close    │
     │ the ticket             │
     ╰────────────────────────╯
    ────────────────────────────────────────
    ↪ replying to bob: great, then I close…
    > thanks               Enter send reply
    """

    static let forward80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────







                 ╭───────────────────────────────────────────────────╮
                 │ forward to:                                       │
                 │ bob                                               │
     bob         │ ops                                               │
     ╭───────────╰───────────────────────────────────────────────────╯
     │ ↪ forwarded from carol (+1 more)    │
     │   the release notes are in the wiki │
     ╰─────────────────────────────────────╯
     16:50
                                                                ╭─────────────────╮
                                                                │ thanks, reading │
                                                                ╰─────────────────╯
                                                                           16:51 ✓✓
    ────────────────────────────────────────────────────────────────────────────────
    >                                        ↑↓ choose · Enter forward · Esc cancel
    """

    static let forward40x12 = """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
                ── Mon 30 Nov ──
     bob ╭────────────────────────────╮
     ╭───│ forward to:                │
     │ ↪ │ bob                        │
     │   │ ops                        │
     │   ╰────────────────────────────╯
     ╰────────────────────────╯
     16:50
    ────────────────────────────────────────
    >                             ↑↓ choose
    """
}
