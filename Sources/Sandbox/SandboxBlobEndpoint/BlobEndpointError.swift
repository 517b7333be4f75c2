/// Why the storage endpoint could not start (its directory, its daemon).
package struct BlobEndpointError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
