/// Why the WebSocket listener could not start (its address, libwebsockets, its thread).
package struct WebSocketError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
