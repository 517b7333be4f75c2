/// The settings' golden screens (see Goldens.swift: a change here is a change of what users see;
/// a failing test writes the new screen to paste: GoldenScreen.swift).
enum SettingsGoldens {
    static let avatars80x24 = """
     ops · group · connected
    ────────────────────────────────────────────────────────────────────────────────

                                    ── Mon 30 Nov ──
          carol Q
      CQ  ╭────────────────────────╮
          │ the build is red again │
          ╰────────────────────────╯
          16:46
          ╭──────────────────╮
          │ that's the error │
          ╰──────────────────╯
          16:47
          bob
      B   ╭──────────────╮
          │ standup in 5 │
          ╰──────────────╯
          16:47
                                                                          ╭───────╮
                                                                          │ on it │
                                                                          ╰───────╯
                                                                           16:49 ✓✓
    ────────────────────────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let avatars40x12 = """
     ops · connected
    ────────────────────────────────────────
      B   ╭──────────────╮
          │ standup in 5 │
          ╰──────────────╯
          16:47
                                  ╭───────╮
                                  │ on it │
                                  ╰───────╯
                                   16:49 ✓✓
    ────────────────────────────────────────
    >                            Tab select
    """

    static let compact80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────









                                    ── Sun 29 Nov ──
     17:51 <bob> morning! is the build still red?
     17:53 <alice> fixed it, the cache was stale ✓✓
                                    ── Mon 30 Nov ──
     16:49 <bob> did the deploy finish?
     16:50 <bob> the dashboard looks quiet
     16:51 <alice> yes, all green. logs in the thread, and the canary has been at
                   100% for an hour now ✓✓
     16:51 <alice> thanks! ✓
     16:51 <alice> what about the db migration? sending…
     16:51 <alice> ping not sent: timed out · retrying
    ─ bob is typing… ───────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let compact40x12 = """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
                   the thread, and the
                   canary has been at 100%
                   for an hour now ✓✓
     16:51 <alice> thanks! ✓
     16:51 <alice> what about the db
                   migration? sending…
     16:51 <alice> ping
                   not sent: timed out · r…
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """

    static let hidden80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────
     ╭──────────────────────────────────╮
     │ morning! is the build still red? │
     ╰──────────────────────────────────╯
                                                  ╭───────────────────────────────╮
                                                  │ fixed it, the cache was stale │
                                                  ╰───────────────────────────────╯
                                                                                 ✓✓
                                    ── Mon 30 Nov ──
     ╭────────────────────────╮
     │ did the deploy finish? │
     ╰────────────────────────╯
                                    ╭─────────────────────────────────────────────╮
                                    │ yes, all green. logs in the thread, and the │
                                    │ canary has been at 100% for an hour now     │
                                    ╰─────────────────────────────────────────────╯
                                                                                 ✓✓
                                                   ╭──────────────────────────────╮
                                                   │ what about the db migration? │
                                                   ╰──────────────────────────────╯
                                                                           sending…
    ─ bob is typing… ───────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let hidden40x12 = """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
                      │ what about the db │
                      │ migration?        │
                      ╰───────────────────╯
                                   sending…
                                   ╭──────╮
                                   │ ping │
                                   ╰──────╯
                       not sent: timed out…
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """
}
