/// Why an image has no preview, in words for the person looking at the chat; the
/// kind lets the chat view choose what to show instead (`[image cat.jpg]`).
package struct ImagePreviewError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The file cannot be opened or read, or is not a regular file.
        case unreadable
        /// Not a format stb_image decodes here: PNG, JPEG, GIF and BMP only.
        case unsupported
        /// Over `ImageLimits`, judged from the header before anything is decoded.
        case tooLarge
        /// A header or data that cannot be decoded: truncated, damaged, not what it says.
        case corrupt
        /// libstb or libchafa cannot be loaded.
        case unavailable
    }
    package var kind: Kind
    package var message: String
    package var hint: String?

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    package var description: String { hint.map { "\(message) (\($0))" } ?? message }
}
