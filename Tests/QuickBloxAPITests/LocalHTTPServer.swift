import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport

/// A tiny HTTP/1.1 server: serves each connection's requests in turn (keep-alive),
/// answering every request with `respond`, and records what it received.
final class LocalHTTPServer: Sendable {
    struct Received: Sendable {
        var requestLine: String
        var headers: [(String, String)]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    let listener: LoopbackListener
    private let state = Mutex<(connections: Int, requests: [Received])>((0, []))
    private let respond: @Sendable (Received) -> String

    var port: Int { listener.port }
    var connectionCount: Int { state.withLock { $0.connections } }
    var received: [Received] { state.withLock { $0.requests } }

    init(respond: @escaping @Sendable (Received) -> String) throws {
        listener = try LoopbackListener()
        self.respond = respond
        Thread.detachNewThread { [self] in self.acceptLoop() }
    }

    func stop() { listener.wake() }

    private func acceptLoop() {
        while true {
            let client = accept(listener.fd, nil, nil)
            if client < 0 { listener.close(); return }
            state.withLock { $0.connections += 1 }
            serve(client)
            close(client)
        }
    }

    private func serve(_ client: Int32) {
        var buffer: [UInt8] = []
        while true {
            // Read the head.
            var headEnd: Int? = nil
            while headEnd == nil {
                if let range = find([13, 10, 13, 10], in: buffer) { headEnd = range; break }
                guard readMore(client, into: &buffer) else { return }
            }
            let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
            buffer.removeFirst(headEnd! + 4)
            var lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst()
            let headers = lines.compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
            while buffer.count < length { guard readMore(client, into: &buffer) else { return } }
            let request = Received(requestLine: requestLine, headers: headers, body: Array(buffer.prefix(length)))
            buffer.removeFirst(length)
            state.withLock { $0.requests.append(request) }
            let answer = Array(respond(request).utf8)
            _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    private func readMore(_ client: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk.prefix(count))
        return true
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
