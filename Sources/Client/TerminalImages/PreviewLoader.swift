import Diagnostics
import Dispatch
import Synchronization

/// Decodes image files for previews on a background queue and keeps the most
/// recently used: the caller asks from the terminal's thread, never waits, and is
/// handed the image (or why there is none) on the loader's queue, where it may go
/// on with it (draw it, say) before reporting back.
///
/// Kept images are shrunk to `keptSide` pixels on their longer side, so that
/// `capacity` of them take at most 4 MiB each, whatever users send.
package final class PreviewLoader: Sendable {
    package typealias Outcome = Result<DecodedImage, Failure>

    /// More pixels than a preview needs in any terminal (a 100-column sixel at 10 pixels a cell).
    package static let keptSide = 1024

    private struct Entries {
        var kept: [String: Outcome] = [:]
        /// Least recently used first.
        var order: [String] = []
    }

    private let entries = Mutex(Entries())
    private let limits: ImageLimits
    private let capacity: Int
    /// One decode at a time, off the shared concurrency pool (a decode blocks in C).
    private let queue = DispatchQueue(label: "chatctl.preview-loader", qos: .utility)

    package init(limits: ImageLimits = .standard, capacity: Int = 16) {
        self.limits = limits; self.capacity = max(1, capacity)
    }

    /// Returns at once; `then` gets the image at `path` on the loader's queue:
    /// decoded there, or kept from before (a file that failed fails again unread).
    package func load(_ path: String, then: @escaping @Sendable (Outcome) -> Void) {
        queue.async { [self] in then(image(at: path)) }
    }

    /// Drops what is known of `path` (its file changed); the next load decodes it again.
    package func forget(_ path: String) {
        entries.withLock { entries in
            entries.kept[path] = nil
            entries.order.removeAll { $0 == path }
        }
    }

    /// On the queue: the kept outcome, else a decode, kept.
    private func image(at path: String) -> Outcome {
        let known: Outcome? = entries.withLock { entries in
            guard let outcome = entries.kept[path] else { return nil }
            entries.order.removeAll { $0 == path }
            entries.order.append(path)
            return outcome
        }
        if let known { return known }
        let outcome: Outcome
        do throws(Failure) {
            outcome = .success(try ImageDecoder.shrink(ImageDecoder.decode(fileAt: path, limits: limits), toFit: Self.keptSide))
        } catch {
            outcome = .failure(error)
        }
        entries.withLock { entries in
            entries.kept[path] = outcome
            entries.order.append(path)
            // The least recently used go past `capacity`.
            while entries.order.count > capacity { entries.kept[entries.order.removeFirst()] = nil }
        }
        return outcome
    }
}
