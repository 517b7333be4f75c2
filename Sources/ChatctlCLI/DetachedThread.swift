#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for a loop that blocks (libstrophe's, a transfer): never the shared pool.
enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { argument in
            Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, context.toOpaque()) == 0 else {
            // Out of threads: run it here rather than not at all.
            context.takeRetainedValue().run()
            return
        }
        pthread_detach(thread)
    }
}
