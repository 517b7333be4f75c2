internal import CStbImage
import Diagnostics
import Glibc

/// Image files to pixels with stb_image, and large pixels to fewer with
/// stb_image_resize (loaded on first use, see CStbImage); the only file that touches them. Every bound in `ImageLimits` is checked before the
/// memory it guards is taken. Safe on any thread: each call owns what it
/// allocates, and stb_image keeps its failure reason per thread.
package enum ImageDecoder {
    /// The format and size of an image from its first bytes and its header
    /// (`stbi_info_from_memory`), refused when over `limits`.
    package static func header(of bytes: [UInt8], limits: ImageLimits = .standard) throws(Failure) -> ImageHeader {
        let format = try ImageFormat.sniff(bytes)
        guard bytes.count <= limits.maxFileBytes else { throw fileTooLarge(bytes.count, limits) }
        // Judged by our own reading first: stb_image's own refusals do not always say why.
        if let said = format.dimensions(in: bytes) { try limits.check(width: said.width, height: said.height, format: format) }
        try loadLibrary()
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        let found = bytes.withUnsafeBufferPointer { buffer in
            cstb_info_from_memory(buffer.baseAddress, Int32(buffer.count), &width, &height, &channels)
        }
        guard found != 0 else { throw failure(decoding: format, header: true) }
        try limits.check(width: Int(width), height: Int(height), format: format)
        return ImageHeader(format: format, width: Int(width), height: Int(height))
    }

    /// The first image in `bytes` (a GIF's first frame) as RGBA, once its header
    /// has passed `limits`.
    package static func decode(_ bytes: [UInt8], limits: ImageLimits = .standard) throws(Failure) -> DecodedImage {
        let header = try header(of: bytes, limits: limits)
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        let pixels = bytes.withUnsafeBufferPointer { buffer in
            cstb_load_from_memory(buffer.baseAddress, Int32(buffer.count), &width, &height, &channels, 4)
        }
        guard let pixels else { throw failure(decoding: header.format, header: false) }
        defer { cstb_image_free(pixels) }
        // What was decoded is what the header promised; anything else would read past the buffer.
        guard Int(width) == header.width, Int(height) == header.height else {
            throw Failure(.invalidInput, "this \(header.format.rawValue) decoded to another size than its header says")
        }
        let count = header.width * header.height * 4
        let copy = [UInt8](UnsafeBufferPointer(start: pixels, count: count))
        guard let image = DecodedImage(width: header.width, height: header.height, rgba: copy) else {
            preconditionFailure("a decoded image of \(header.width)×\(header.height) has \(count) bytes")
        }
        return image
    }

    /// The image in the file at `path`: a regular file of at most
    /// `limits.maxFileBytes`, read whole, then decoded as `decode(_:limits:)` does.
    package static func decode(fileAt path: String, limits: ImageLimits = .standard) throws(Failure) -> DecodedImage {
        try decode(readFile(path, limits: limits), limits: limits)
    }

    /// `image` resampled (stb_image_resize, sRGB-aware) so that its longer side is
    /// at most `maxSide` pixels; itself when it already is.
    package static func shrink(_ image: DecodedImage, toFit maxSide: Int) throws(Failure) -> DecodedImage {
        let longer = max(image.width, image.height)
        guard maxSide > 0, longer > maxSide else { return image }
        let width = max(1, image.width * maxSide / longer), height = max(1, image.height * maxSide / longer)
        try loadLibrary()
        var output = [UInt8](repeating: 0, count: width * height * 4)
        let resized = image.rgba.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                cstb_resize_rgba(input.baseAddress, Int32(image.width), Int32(image.height), output.baseAddress, Int32(width), Int32(height))
            }
        }
        guard resized != 0, let shrunk = DecodedImage(width: width, height: height, rgba: output) else {
            throw Failure(.invalidInput, "this \(image.width)×\(image.height) image could not be shrunk to \(width)×\(height)")
        }
        return shrunk
    }

    static func readFile(_ path: String, limits: ImageLimits) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: a FIFO put where an image was expected must not hang the chat.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(path, errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(.invalidInput, "cannot preview \(path): not a regular file")
        }
        let size = Int(status.st_size)
        guard size <= limits.maxFileBytes else { throw fileTooLarge(size, limits) }
        // One more byte than the size said: a file that grew since is refused, not cut.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, errno)
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= size else { throw Failure(.invalidInput, "cannot preview \(path): it is still being written") }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    private static func loadLibrary() throws(Failure) {
        guard cstb_load() == 0 else {
            throw Failure(.failure, "cannot load stb_image to decode images: \(String(cString: cstb_load_error()))",
                                    hint: "is the libstb0 package installed?")
        }
    }

    /// stb_image's reason for the failure just now, as an error of the right kind.
    private static func failure(decoding format: ImageFormat, header: Bool) -> Failure {
        let reason = String(cString: cstb_failure_reason())
        // stb_image refuses sizes it cannot allocate ("too large") before we could.
        if reason == "too large" {
            return Failure(.invalidInput, "this \(format.rawValue) is too large to preview (stb_image: \(reason))")
        }
        let what = header ? "header" : "data"
        return Failure(.invalidInput, "this \(format.rawValue)'s \(what) cannot be decoded: truncated or damaged (stb_image: \(reason))")
    }

    private static func fileTooLarge(_ size: Int, _ limits: ImageLimits) -> Failure {
        Failure(.invalidInput, "the file is \(size) bytes, too large to preview",
                          hint: "previews stop at \(limits.maxFileBytes >> 20) MiB")
    }

    private static func unreadable(_ path: String, _ code: Int32) -> Failure {
        Failure(.invalidInput, "cannot preview \(path): \(String(cString: strerror(code)))")
    }
}
