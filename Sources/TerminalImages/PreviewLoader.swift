import Diagnostics
import Dispatch
import Synchronization

/// Decodes image files for previews on a background queue, each file once, and
/// keeps the most recently used: a renderer on the terminal's thread asks, is told
/// `.loading` at first, and never waits. `onFinished` runs on the background queue
/// when a file's state is settled, for the caller to redraw.
///
/// Kept images are shrunk to `keptSide` pixels on their longer side, so that
/// `capacity` of them take at most 4 MiB each, whatever users send.
package final class PreviewLoader: Sendable {
    package enum State: Sendable, Equatable {
        case loading
        case ready(DecodedImage)
        case failed(Failure)
    }

    /// More pixels than a preview needs in any terminal (a 100-column sixel at 10 pixels a cell).
    package static let keptSide = 1024

    private struct Entries {
        var states: [String: State] = [:]
        /// Least recently used first.
        var order: [String] = []
    }

    private let entries = Mutex(Entries())
    private let limits: ImageLimits
    private let capacity: Int
    private let onFinished: @Sendable (String) -> Void
    /// One decode at a time, off the shared concurrency pool (a decode blocks in C).
    private let queue = DispatchQueue(label: "chatctl.preview-loader", qos: .utility)

    package init(limits: ImageLimits = .standard, capacity: Int = 16, onFinished: @escaping @Sendable (String) -> Void) {
        self.limits = limits; self.capacity = max(1, capacity); self.onFinished = onFinished
    }

    /// Where the image at `path` stands; the first ask starts decoding it.
    package func state(ofImageAt path: String) -> State {
        let known: State? = entries.withLock { entries in
            if let state = entries.states[path] {
                entries.order.removeAll { $0 == path }
                entries.order.append(path)
                return state
            }
            entries.states[path] = .loading
            entries.order.append(path)
            evict(&entries)
            return nil
        }
        if let known { return known }
        queue.async { [self] in
            let state: State
            do throws(Failure) {
                state = .ready(try ImageDecoder.shrink(ImageDecoder.decode(fileAt: path, limits: limits), toFit: Self.keptSide))
            } catch {
                state = .failed(error)
            }
            let kept = entries.withLock { entries in
                guard entries.states[path] == .loading else { return false }  // forgotten meanwhile
                entries.states[path] = state
                return true
            }
            if kept { onFinished(path) }
        }
        return .loading
    }

    /// Drops what is known of `path` (its file changed); the next ask decodes it again.
    package func forget(_ path: String) {
        entries.withLock { entries in
            entries.states[path] = nil
            entries.order.removeAll { $0 == path }
        }
    }

    /// The least recently used settled images past `capacity` go; loading ones stay.
    private func evict(_ entries: inout Entries) {
        var excess = entries.order.count - capacity
        var index = 0
        while excess > 0 && index < entries.order.count {
            let path = entries.order[index]
            if entries.states[path] == .loading {
                index += 1
            } else {
                entries.states[path] = nil
                entries.order.remove(at: index)
                excess -= 1
            }
        }
    }
}
