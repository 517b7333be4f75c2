/// The help overlay's and notices' golden screens (HelpAndNoticeTests.swift). A change here is a change
/// of what users see: look at it before accepting it (a failing test writes the new screen to paste: GoldenScreen.swift).
enum HelpGoldens {
    static let help80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────╭─ help ───────────────────────────────────────────────────────╮────────
     17:51  │ Writing                                                      │
            │  Enter              send                                     │──────╮
            │  ^J · Alt-Enter     new line in the message                  │stale │
            │  ↑/↓                move in the text, else earlier messages  │──────╯
            │                     sent                                     │7:53 ✓✓
            │  ^A ^E ^W ^U ^K     line start, end, delete word, to start,  │
     bob    │                     to end                                   │
     ╭──────│ Reading                                                      │
     │ did t│  PgUp/PgDn · wheel  scroll                                   │
     ╰──────│  Home/End           oldest, newest (with an empty input)     │
     16:49  │  Tab                select a message, then ↑/↓ to move       │
            │ Selected message                                             │──────╮
            │  r                  reply                                    │d the │
            │  f                  forward to another dialog                │w     │
            │  y                  copy the text (OSC 52)                   │──────╯
            │  e · x              edit, delete your own                    │6:51 ✓✓
            │  d                  save the attachment                      │──────╮
            │ Commands                                                     │tion? │
            │  /attach PATH       send a file                              │──────╯
            ╰─ ↑↓ scroll · Esc closes ─────────────────────────────────────╯ending…
    ─ bob is typing… ───────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let help40x12 = """
     bob · connected                    ✉ 2
    ─╭─ help ─────────────────────────────╮─
     │ Writing                            │
     │  Enter                             │
     │     send                           │
     │  ^J · Alt-Enter                    │
     │     new line in the message        │
     │  ↑/↓                               │
     │     move in the text, else earlier │
     ╰─ ↑↓ scroll · Esc closes ───────────╯
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """

    static let help40x12Scrolled = """
     bob · connected                    ✉ 2
    ─╭─ help ─────────────────────────────╮─
     │     leave                          │
     │  //text                            │
     │     a message that starts with /   │
     │  Esc                               │
     │     back: the help, a selection, a │
     │     reply or edit, a forward, the  │
     │     dialog list; else quit         │
     ╰─ ↑↓ scroll · Esc closes ───────────╯
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """

    static let notice80x24 = """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────
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
     cannot attach /home/alice/photos: it is a directory (attach the files in it
     one by one, or an archive of it)
    ─ bob is typing… ───────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """

    static let notice40x12 = """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
                                   16:51 ✓✓
                      ╭───────────────────╮
                      │ what about the db │
                      │ migration?        │
                      ╰───────────────────╯
                             16:51 sending…
     cannot attach /home/alice/photos: it
     is a directory (attach the files in …
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """

}
