#if canImport(Glibc)
import Glibc
#endif
import ChatView
import Diagnostics
internal import CNcurses

/// The terminal under `chatctl chat`, through ncursesw (loaded on first use, see
/// CNcurses): keys in (wide characters, function keys, the mouse wheel, bracketed
/// paste), a `CellGrid` out (ncurses sends only what changed). The one file that
/// touches ncurses; used from one thread. `restore()` gives the terminal back as it
/// was, and is safe to call twice.
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
    /// Inside a bracketed paste: its text so far.
    private var paste: String?

    private struct PairKey: Hashable { let foreground: Int16, background: Int16 }

    /// Key codes of our own for sequences terminfo does not name.
    private static let pasteStart = KEY_MAX + 1, pasteEnd = KEY_MAX + 2
    private static let controlLeft = KEY_MAX + 3, controlRight = KEY_MAX + 4

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
        cncurses_keypad(window, true)
        cncurses_nodelay(window, true)
        cncurses_meta(window, true)
        cncurses_set_escdelay(25)
        if wanted && cncurses_has_colors() {
            cncurses_start_color()
            cncurses_use_default_colors()
            colors = cncurses_colors() >= 256 && cncurses_color_pairs() >= 256 ? 256 : 8
        } else {
            colors = 0
        }
        cncurses_mousemask(cncurses_wheel_up() | cncurses_wheel_down())
        cncurses_mouseinterval(0)
        cncurses_define_key("\u{1B}[200~", Self.pasteStart)
        cncurses_define_key("\u{1B}[201~", Self.pasteEnd)
        cncurses_define_key("\u{1B}[1;5D", Self.controlLeft)
        cncurses_define_key("\u{1B}[1;5C", Self.controlRight)
        width = Int(cncurses_getmaxx(window))
        height = Int(cncurses_getmaxy(window))
        // Bracketed paste: a pasted text arrives marked, so its newlines do not send it line by line.
        write("\u{1B}[?2004h")
    }

    deinit { restore() }

    /// Gives the terminal back: paste mode off, modes and screen as they were. Idempotent.
    func restore() {
        guard active else { return }
        active = false
        write("\u{1B}[?2004l")
        cncurses_mousemask(0)
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
        write("\u{1B}[?2004l")
        cncurses_endwin()
        raise(SIGTSTP)
        write("\u{1B}[?2004h")
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

    /// What was typed since the last call, decoded; nothing when nothing waits.
    func readInput() -> [TerminalInput] {
        guard active else { return [] }
        var decoded: [TerminalInput] = []
        var character: wint_t = 0
        var escape = false
        while true {
            let status = cncurses_wget_wch(cncurses_stdscr(), &character)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                if let input = functionKey(Int32(character)) { decoded.append(input) }
                escape = false
                continue
            }
            let value = UInt32(character)
            if paste != nil {
                if let scalar = Unicode.Scalar(value) { paste!.unicodeScalars.append(value == 13 ? "\n" : scalar) }
                continue
            }
            if escape && value != 27 {
                escape = false
                decoded.removeLast()
                switch value {
                case 98: decoded.append(.key(.wordLeft))   // Alt-b
                case 102: decoded.append(.key(.wordRight)) // Alt-f
                case 13: decoded.append(.key(.newline))    // Alt-Enter
                default: decoded.append(.key(.escape))
                }
                continue
            }
            switch value {
            case 13: decoded.append(.key(.enter))
            case 10: decoded.append(.key(.newline))
            case 127, 8: decoded.append(.key(.backspace))
            case 9: decoded.append(.key(.tab))
            case 27:
                decoded.append(.key(.escape))
                escape = true
            case 12: decoded.append(.redraw)
            case 26: decoded.append(.suspend)
            case 1...26: decoded.append(.key(.control(Character(Unicode.Scalar(value + 96)!))))
            case 0..<32, 127...159: break
            default:
                if let scalar = Unicode.Scalar(value) { decoded.append(.key(.character(Character(scalar)))) }
            }
        }
        return Self.pastedBursts(decoded)
    }

    private func functionKey(_ code: Int32) -> TerminalInput? {
        switch code {
        case Self.pasteStart:
            paste = ""
            return nil
        case Self.pasteEnd:
            defer { paste = nil }
            return paste.map { .paste($0) }
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_ENTER: return .key(.enter)
        case KEY_BTAB: return .key(.tab)
        case Self.controlLeft: return .key(.wordLeft)
        case Self.controlRight: return .key(.wordRight)
        case KEY_RESIZE: return .resized
        case KEY_MOUSE:
            var event = MEVENT()
            guard cncurses_getmouse(&event) == OK else { return nil }
            if event.bstate & cncurses_wheel_up() != 0 { return .key(.wheelUp) }
            if event.bstate & cncurses_wheel_down() != 0 { return .key(.wheelDown) }
            return nil
        default: return nil
        }
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
