#if canImport(Glibc)
import Glibc
#endif

/// Wakes a worker that has nothing to do: a counting semaphore.
final class WakeSignal: Sendable {
    private let semaphore = UncheckedTransfer(UnsafeMutablePointer<sem_t>.allocate(capacity: 1))

    init() { sem_init(semaphore.value, 0, 0) }

    deinit {
        sem_destroy(semaphore.value)
        semaphore.value.deallocate()
    }

    func signal() { sem_post(semaphore.value) }

    func wait() {
        while sem_wait(semaphore.value) != 0 && errno == EINTR {}
    }
}
