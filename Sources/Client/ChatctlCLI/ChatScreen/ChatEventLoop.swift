#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatView
import Threads

/// The chat view's one event loop, on the terminal's thread: it waits on the
/// terminal, the inbox and the signal pipe together, turns what came into events,
/// runs each through the update, performs the effects, and draws. Nothing else
/// draws, so the screen is never written from two threads.
final class ChatEventLoop {
    enum Ending: Equatable {
        case quit
        /// ^C.
        case interrupted
        /// SIGINT, SIGTERM or SIGHUP: after the terminal is restored, the process ends by it.
        case signal(Int32)
    }

    private(set) var model: ScreenModel
    private let update: ScreenUpdate
    private let renderer: ScreenRenderer
    private let terminal: ChatTerminal
    private let inbox: ChatInbox
    private let signals: SignalPipe
    private let effects: ChatEffects
    /// How often the clock ticks (typing timeouts, countdowns).
    private let tickSeconds = 1.0
    private var lastTick = 0.0
    /// How often the shared cache is looked at for what others cached (`ChatEffects.followCache`).
    private let cacheSeconds = 0.5
    private var lastCacheLook = 0.0
    /// `CHATCTL_CHAT_TRACE` (`make bench` only): a file that gets a line per frame drawn
    /// for keys, `key MS` (from reading the key to the end of drawing it), and a line per
    /// page of older messages taken in, `older N`.
    private let trace: UnsafeMutablePointer<FILE>?

    init(model: ScreenModel, update: ScreenUpdate, renderer: ScreenRenderer, terminal: ChatTerminal, inbox: ChatInbox,
         signals: SignalPipe, effects: ChatEffects, tracePath: String?) {
        self.model = model; self.update = update; self.renderer = renderer; self.terminal = terminal
        self.inbox = inbox; self.signals = signals; self.effects = effects
        trace = tracePath.flatMap { fopen($0, "a") }
    }

    deinit { if let trace { fclose(trace) } }

    static var now: Double { Date().timeIntervalSince1970 }

    /// Runs until the view quits or a signal ends it; `first` are the events to start with.
    func run(first: [ScreenEvent]) -> Ending {
        var pending = first
        lastTick = Self.now
        while true {
            var keyReadAt: ContinuousClock.Instant?
            var ending: Ending?
            for signal in signals.take() {
                switch signal {
                case SIGWINCH:
                    terminal.resize()
                    pending.append(.resize(width: terminal.width, height: terminal.height))
                case SIGCONT:
                    terminal.redrawAll()
                default:
                    ending = .signal(signal)
                }
            }
            if let ending { return ending }
            let typed = terminal.readInput()
            if !typed.isEmpty { keyReadAt = .now }
            for input in typed {
                switch input {
                case .key(let key): pending.append(.key(key))
                case .paste(let text): pending.append(.paste(text))
                case .redraw: terminal.redrawAll()
                case .suspend: terminal.suspend()
                case .resized:
                    terminal.resize()
                    pending.append(.resize(width: terminal.width, height: terminal.height))
                }
            }
            pending += inbox.take()
            if Self.now - lastCacheLook >= cacheSeconds {
                lastCacheLook = Self.now
                pending += effects.followCache(model)
            }
            if Self.now - lastTick >= tickSeconds {
                lastTick = Self.now
                pending.append(.tick)
            }
            if !pending.isEmpty {
                // Effects may answer at once (the cache): those events go through before drawing.
                var rounds = 0
                while !pending.isEmpty && rounds < 8 {
                    rounds += 1
                    let events = pending
                    pending.removeAll()
                    for event in events {
                        if let trace, case .olderLoaded(_, _, let page, _) = event { fputs("older \(page.count)\n", trace) }
                        let (next, asked) = update.update(model, event, now: Self.now)
                        model = next
                        for effect in asked {
                            if case .quit(let interrupted) = effect { return interrupted ? .interrupted : .quit }
                            pending += effects.perform(effect, model: model)
                        }
                    }
                }
                terminal.draw(renderer.render(model))
                if let keyReadAt, let trace {
                    let elapsed = ContinuousClock.now - keyReadAt
                    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                    fputs("key \(ms)\n", trace)
                    fflush(trace)
                }
            }
            var timeout = max(0, min(tickSeconds - (Self.now - lastTick), cacheSeconds - (Self.now - lastCacheLook)))
            // A held ESC must become Esc on time, not at the next tick.
            if let deadline = terminal.inputDeadline {
                let left = (deadline - .now).components
                timeout = min(timeout, max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18))
            }
            if !wait(timeout: timeout) { return .signal(SIGHUP) }
        }
    }

    /// Sleeps until the terminal has input, an event or a signal comes, or `timeout`
    /// seconds pass. False when the terminal is gone (hung up).
    private func wait(timeout: Double) -> Bool {
        var watched = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inbox.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
        _ = poll(&watched, nfds_t(watched.count), Int32(timeout * 1000) + 1)
        return watched[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) == 0
    }
}

@available(*, unavailable)
extension ChatEventLoop: Sendable {}
