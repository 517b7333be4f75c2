#if canImport(Glibc)
import Glibc
#endif
import ChatView
import Diagnostics
internal import CNcurses

/// The terminal under `chatctl chat`, through ncursesw (loaded on first use, see
/// CNcurses): keys in (wide characters from ncurses, decoded into keys, the mouse
/// wheel and bracketed paste by `KeySequenceDecoder`, not by terminfo), a `CellGrid`
/// out (ncurses sends only what changed). The one file that touches ncurses; used
/// from one thread. `restore()` gives the terminal back as it was, and is safe to
/// call twice.
final class ChatTerminal {
    private(set) var width: Int
    private(set) var height: Int
    /// Whether the locale is UTF-8 (else the view draws ASCII).
    let unicode: Bool
    /// 0, 8 or 256.
    let colors: Int
    private var screen: OpaquePointer?
    private var input: UnsafeMutablePointer<FILE>?
    private var output: UnsafeMutablePointer<FILE>?
    private var pairs: [PairKey: Int16] = [:]
    private var active = false
    /// ncurses's keypad mode knows only the sequences terminfo lists for TERM, and takes
    /// any other's ESC for Esc (End from tmux under TERM=xterm-256color): keys are ours.
    private var decoder = KeySequenceDecoder()
    /// When the last character came, for the escape delay.
    private var lastReadAt = ContinuousClock.now
    /// How long after its last character a held ESC is Esc (and a held incomplete sequence dropped).
    private static let escapeDelay = Duration.milliseconds(40)
    /// Bracketed paste; mouse reports (1000), in SGR form (1006) where the terminal has it;
    /// the window title saved on xterm's title stack (CSI 22 t) and given back (CSI 23 t).
    private static let modesOn = "\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1006h\u{1B}[22;0t"
    private static let modesOff = "\u{1B}[23;0t\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l"
    /// The title last written (OSC 2), so it is written again only when it changes.
    private var shownTitle: String?

    private struct PairKey: Hashable { let foreground: Int16, background: Int16 }

    /// Takes over the terminal on standard input and output. `colors`: false with NO_COLOR.
    /// Why the view cannot take the terminal: bad input for this command (exit 2).
    private static func unusable(_ why: String) -> Failure {
        Failure(.invalidInput, "cannot use the terminal: \(why)", hint: "use 'chatctl history' and 'chatctl listen'")
    }

    init(colors wanted: Bool) throws(Failure) {
        setlocale(LC_ALL, "")
        unicode = String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8"
        guard cncurses_load() == 0 else {
            throw Self.unusable("cannot load ncursesw (\(String(cString: cncurses_load_error())))")
        }
        guard let input = fdopen(0, "r"), let output = fdopen(1, "w") else {
            throw Self.unusable("cannot open the terminal's streams")
        }
        self.input = input
        self.output = output
        // newterm, unlike initscr, returns NULL for a terminal it does not know instead of exiting.
        guard let screen = cncurses_newterm(nil, output, input) else {
            throw Self.unusable("the terminal type '\(Self.environment("TERM") ?? "")' is unknown to ncurses")
        }
        self.screen = screen
        active = true
        cncurses_raw()
        cncurses_noecho()
        cncurses_nonl()
        let window = cncurses_stdscr()
        cncurses_keypad(window, false)
        cncurses_nodelay(window, true)
        cncurses_meta(window, true)
        if wanted && cncurses_has_colors() {
            cncurses_start_color()
            cncurses_use_default_colors()
            colors = cncurses_colors() >= 256 && cncurses_color_pairs() >= 256 ? 256 : 8
        } else {
            colors = 0
        }
        width = Int(cncurses_getmaxx(window))
        height = Int(cncurses_getmaxy(window))
        // Bracketed paste (a pasted text arrives marked, so its newlines do not send it line
        // by line) and mouse reports (the wheel scrolls).
        write(Self.modesOn)
        shownTitle = nil
    }

    deinit { restore() }

    /// Gives the terminal back: paste and mouse modes off, modes and screen as they were. Idempotent.
    func restore() {
        guard active else { return }
        active = false
        write(Self.modesOff)
        cncurses_endwin()
        if let screen { cncurses_delscreen(screen) }
        screen = nil
        // The streams share descriptors 0 and 1 with the process: flushed, never closed.
        if let output { fflush(output) }
        input = nil
        output = nil
    }

    /// Leaves the screen for the shell (^Z) until the process is continued.
    func suspend() {
        guard active else { return }
        write(Self.modesOff)
        cncurses_endwin()
        raise(SIGTSTP)
        write(Self.modesOn)
        shownTitle = nil
        cncurses_clearok(cncurses_stdscr(), true)
        cncurses_refresh()
    }

    /// Follows the terminal's new size (after SIGWINCH).
    func resize() {
        guard active else { return }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
            cncurses_resizeterm(Int32(size.ws_row), Int32(size.ws_col))
        }
        width = Int(cncurses_getmaxx(cncurses_stdscr()))
        height = Int(cncurses_getmaxy(cncurses_stdscr()))
    }

    /// Draws everything again (^L).
    func redrawAll() {
        guard active else { return }
        cncurses_clearok(cncurses_stdscr(), true)
    }

    // MARK: keys

    /// What was typed since the last call, decoded; nothing when nothing waits. A
    /// sequence cut short is held until the next call; once `escapeDelay` has passed
    /// with nothing more, a held ESC is Esc.
    func readInput() -> [TerminalInput] {
        guard active else { return [] }
        var scalars: [Unicode.Scalar] = []
        var resized = false
        var character: wint_t = 0
        while true {
            let status = cncurses_wget_wch(cncurses_stdscr(), &character)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                // Without keypad mode the one code left is ncurses's own word of a resize.
                if Int32(character) == KEY_RESIZE { resized = true }
                continue
            }
            if let scalar = Unicode.Scalar(UInt32(character)) { scalars.append(scalar) }
        }
        let outputs: [KeySequenceDecoder.Output]
        if !scalars.isEmpty {
            lastReadAt = .now
            outputs = decoder.decode(scalars)
        } else if let deadline = inputDeadline, deadline <= .now {
            outputs = decoder.escapeDelayPassed()
        } else {
            outputs = []
        }
        var decoded: [TerminalInput] = outputs.map { output in
            switch output {
            case .key(.control("l")): .redraw
            case .key(.control("z")): .suspend
            case .key(let key): .key(key)
            case .paste(let text): .paste(text)
            }
        }
        if resized { decoded.append(.resized) }
        return Self.pastedBursts(decoded)
    }

    /// When the escape delay of a held sequence ends: the event loop reads again then.
    var inputDeadline: ContinuousClock.Instant? {
        decoder.isHoldingSequence ? lastReadAt + Self.escapeDelay : nil
    }

    /// A terminal without bracketed paste sends a paste as typing, its line ends as
    /// Enter: an Enter with more text right behind it in the same read is a new line.
    static func pastedBursts(_ inputs: [TerminalInput]) -> [TerminalInput] {
        var result = inputs
        for index in result.indices where result[index] == .key(.enter) && index + 1 < result.count {
            if case .key(.character) = result[index + 1] { result[index] = .key(.newline) }
        }
        return result
    }

    // MARK: drawing

    /// Shows `grid`: every cell is handed to ncurses, which sends only the changes.
    func draw(_ grid: CellGrid) {
        guard active else { return }
        if let title = grid.title, title != shownTitle {
            shownTitle = title
            write(TerminalNotification.titleSequence(title))
        }
        let window = cncurses_stdscr()
        let rows = min(grid.height, height), columns = min(grid.width, width)
        for row in 0..<rows {
            var column = 0
            while column < columns {
                let style = grid[row, column].style
                var run = ""
                let start = column
                while column < columns && grid[row, column].style == style {
                    run += grid[row, column].text
                    column += 1
                }
                apply(style)
                // The bottom-right cell cannot be written without scrolling: ERR, but drawn.
                _ = cncurses_mvwaddstr(window, Int32(row), Int32(start), run)
            }
        }
        cncurses_wattr_set(window, 0, 0)
        if let cursor = grid.cursor, cursor.row < rows, cursor.column < columns {
            cncurses_curs_set(1)
            cncurses_wmove(window, Int32(cursor.row), Int32(cursor.column))
        } else {
            cncurses_curs_set(0)
        }
        cncurses_wnoutrefresh(window)
        cncurses_doupdate()
        for image in grid.images { drawImage(image) }
        for link in grid.links { drawLink(link, in: grid) }
    }

    private func apply(_ style: CellStyle) {
        var attributes: attr_t = 0
        if style.bold { attributes |= cncurses_a_bold() }
        if style.dim { attributes |= cncurses_a_dim() }
        if style.reverse { attributes |= cncurses_a_reverse() }
        if style.underline { attributes |= cncurses_a_underline() }
        cncurses_wattr_set(cncurses_stdscr(), attributes, pair(style))
    }

    /// The colour pair for a style's colours, made on first use (0: the terminal's own).
    private func pair(_ style: CellStyle) -> Int16 {
        guard colors > 0, style.foreground != nil || style.background != nil else { return 0 }
        let key = PairKey(foreground: style.foreground.map { Int16($0) } ?? -1, background: style.background.map { Int16($0) } ?? -1)
        if let known = pairs[key] { return known }
        let next = Int16(pairs.count + 1)
        guard Int32(next) < cncurses_color_pairs() else { return 0 }
        cncurses_init_pair(next, key.foreground, key.background)
        pairs[key] = next
        return next
    }

    /// An image the terminal draws itself (sixel, kitty): the cursor to its cell, then its bytes.
    private func drawImage(_ image: ImagePlacement) {
        write("\u{1B}7\u{1B}[\(image.row + 1);\(image.column + 1)H")
        image.payload.withUnsafeBufferPointer { buffer in
            if let output { _ = fwrite(buffer.baseAddress, 1, buffer.count, output) }
        }
        write("\u{1B}8")
    }

    /// Puts `text` on the clipboard of the terminal (and of tmux, with `set-clipboard on`):
    /// OSC 52, which xterm, kitty, iTerm2, foot, WezTerm and others take (ClipboardSequence).
    func copyToClipboard(_ text: String) { write(ClipboardSequence.osc52(text)) }

    /// Writes a notification's bytes (TerminalNotification: the bell, maybe a desktop notification).
    func notify(_ sequence: String) { write(sequence) }

    /// A link's cells written again inside an OSC 8 hyperlink, so a terminal that makes them
    /// opens it on a click (one that does not ignores the sequence); the cursor and the
    /// rendition ncurses left are saved and given back around it.
    private func drawLink(_ link: LinkPlacement, in grid: CellGrid) {
        guard link.row < height, link.columns.upperBound <= width else { return }
        let text = link.columns.map { grid[link.row, $0].text }.joined()
        write("\u{1B}7\u{1B}[\(link.row + 1);\(link.columns.lowerBound + 1)H\u{1B}[4m" + Hyperlink.osc8(text, url: link.url) + "\u{1B}8")
    }

    /// Bytes straight to the terminal, around ncurses (modes it has no call for).
    private func write(_ text: String) {
        guard let output else { return }
        fputs(text, output)
        fflush(output)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

@available(*, unavailable)
extension ChatTerminal: Sendable {}
