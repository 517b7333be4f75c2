internal import CMagic
import Diagnostics
import Synchronization

/// libmagic's cookies must not be opened or loaded on two threads at once (its
/// loader shares state); each cookie then belongs to one thread.
private let magicLoading = Mutex(())

/// The MIME type of a file judged from its first bytes, as file(1) does: the
/// content decides, never the name. Wraps a libmagic cookie (`magic_t`) loaded with
/// the system's database (libmagic itself is loaded on first use, see CMagic);
/// not `Sendable` (one per thread). The only file that touches libmagic.
package final class ContentSniffer {
    /// How much of a file is looked at: enough for every format libmagic knows
    /// by its start, small enough to hold while a pipe is read.
    package static let sniffLength = 256 * 1024
    /// What a file is when libmagic cannot say.
    package static let unknownType = "application/octet-stream"

    private let cookie: OpaquePointer

    /// Fails when libmagic or its database cannot be loaded.
    package init() throws(Failure) {
        let opened: OpaquePointer? = magicLoading.withLock { _ in
            // MIME type only ("image/jpeg"), and no look inside compressed files.
            guard let cookie = cmagic_open(MAGIC_MIME_TYPE | MAGIC_NO_CHECK_COMPRESS) else { return nil }
            if cmagic_load_database(cookie, nil) != 0 {
                cmagic_close(cookie)
                return nil
            }
            return cookie
        }
        guard let opened else {
            if cmagic_load() != 0 {
                throw Failure(.failure, "cannot load libmagic to judge file types: \(String(cString: cmagic_load_error()))",
                                    hint: "is the libmagic1 package installed?")
            }
            throw Failure(.failure, "cannot load libmagic's database of file types", hint: "is the libmagic-mgc package installed?")
        }
        cookie = opened
    }

    deinit { cmagic_close(cookie) }

    /// The MIME type of a file whose first bytes are `prefix` (`magic_buffer`).
    package func mimeType(of prefix: UnsafeRawBufferPointer) -> String {
        guard let base = prefix.baseAddress, prefix.count > 0, let type = cmagic_buffer(cookie, base, prefix.count) else {
            return Self.unknownType
        }
        let text = String(cString: type)
        // libmagic answers a bare word ("data") when it has no MIME type for something.
        return text.contains("/") ? text : Self.unknownType
    }

    package func mimeType(of prefix: [UInt8]) -> String {
        prefix.withUnsafeBytes { mimeType(of: $0) }
    }
}

@available(*, unavailable)
extension ContentSniffer: Sendable {}
