/// What an image's header says, read without decoding it.
package struct ImageHeader: Sendable, Equatable {
    package let format: ImageFormat
    package let width: Int
    package let height: Int
}
