import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An HTTP/1.1 server on loopback whose answers a test writes byte by byte: a
/// normal response, a body cut short and the connection closed, or silence.
/// Each connection is served on its own thread, requests in turn (keep-alive);
/// every request (head and body, by Content-Length) is recorded.
package final class ScriptedHTTPServer: Sendable {
    package struct Request: Sendable {
        package var method: String
        /// Path and query as sent, e.g. `/file?sig=1`.
        package var target: String
        package var headers: [(String, String)]
        package var body: [UInt8]
        package func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// The client's end of one connection, for the handler to answer on.
    package final class Connection: Sendable {
        let fd: Int32
        private let closed = Mutex(false)
        init(fd: Int32) { self.fd = fd }

        package func send(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                offset += n
            }
        }

        package func send(_ text: String) { send(Array(text.utf8)) }

        /// Sends what it can; returns how many bytes went before the peer closed.
        package func sendCounting(_ bytes: [UInt8]) -> Int {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                offset += n
            }
            return offset
        }

        /// Ends the connection (after a body cut short, say): no more requests on it.
        package func close() {
            closed.withLock { done in
                guard !done else { return }
                done = true
                shutdown(fd, Int32(SHUT_RDWR))
            }
        }

        var isClosed: Bool { closed.withLock { $0 } }
    }

    package let listener: LoopbackListener
    private let handler: @Sendable (Request, Connection) -> Void
    private let recorded = Mutex<(connections: Int, requests: [Request])>((0, []))

    package var port: Int { listener.port }
    package var requests: [Request] { recorded.withLock { $0.requests } }
    /// Connections accepted so far (keep-alive reuses one).
    package var connectionCount: Int { recorded.withLock { $0.connections } }
    /// `http://{host}:{port}`; `localhost` and `127.0.0.1` are two hosts to a client.
    package func baseURL(host: String = "127.0.0.1") -> String { "http://\(host):\(port)" }

    package init(handler: @escaping @Sendable (Request, Connection) -> Void) throws {
        listener = try LoopbackListener()
        self.handler = handler
        Thread.detachNewThread { [self] in self.acceptLoop() }
    }

    package func stop() { listener.wake() }

    /// A whole response: status line, `Content-Length`, the headers given, the body.
    package static func response(_ status: Int, _ reason: String, headers: [(String, String)] = [], body: [UInt8] = []) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener.fd, nil, nil)
            if client < 0 { listener.close(); return }
            recorded.withLock { $0.connections += 1 }
            Thread.detachNewThread { [self] in
                serve(Connection(fd: client))
                Glibc.close(client)
            }
        }
    }

    private func serve(_ connection: Connection) {
        var buffer: [UInt8] = []
        while !connection.isClosed {
            var headEnd: Int?
            while headEnd == nil {
                headEnd = Self.find([13, 10, 13, 10], in: buffer)
                if headEnd == nil { guard readMore(connection.fd, into: &buffer) else { return } }
            }
            let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
            buffer.removeFirst(headEnd! + 4)
            var lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst().split(separator: " ")
            let headers = lines.compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
            while buffer.count < length { guard readMore(connection.fd, into: &buffer) else { return } }
            let request = Request(method: requestLine.first.map(String.init) ?? "",
                                  target: requestLine.count > 1 ? String(requestLine[1]) : "",
                                  headers: headers, body: Array(buffer.prefix(length)))
            buffer.removeFirst(length)
            recorded.withLock { $0.requests.append(request) }
            handler(request, connection)
        }
    }

    private func readMore(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk.prefix(count))
        return true
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == needle[0] && Array(haystack[start..<start + needle.count]) == needle { return start }
            start += 1
        }
        return nil
    }
}

/// The parts of a `multipart/form-data` body, in order: name, filename, content
/// type and bytes of each (what a storage service would see).
package struct MultipartBody: Sendable {
    package struct Part: Sendable, Equatable {
        package var name: String
        package var filename: String?
        package var contentType: String?
        package var body: [UInt8]
    }
    package var parts: [Part]

    /// Nil unless `contentType` names a boundary and the body is well formed.
    package init?(contentType: String, body: [UInt8]) {
        guard let range = contentType.range(of: "boundary=") else { return nil }
        var boundary = String(contentType[range.upperBound...])
        if let semicolon = boundary.firstIndex(of: ";") { boundary = String(boundary[..<semicolon]) }
        boundary = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Part] = []
        var rest = body[...]
        guard let first = ScriptedHTTPServer.find(delimiter, in: Array(rest)) else { return nil }
        rest = rest.dropFirst(first + delimiter.count)
        while rest.starts(with: [13, 10]) {
            rest = rest.dropFirst(2)
            let chunk = Array(rest)
            guard let headEnd = ScriptedHTTPServer.find([13, 10, 13, 10], in: chunk),
                  let next = ScriptedHTTPServer.find([13, 10] + delimiter, in: chunk) else { return nil }
            let head = String(decoding: chunk[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            var part = Part(name: "", filename: nil, contentType: nil, body: Array(chunk[(headEnd + 4)..<next]))
            for line in head {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = Self.quoted("name", in: line) ?? ""
                    part.filename = Self.quoted("filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = String(line.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append(part)
            rest = rest.dropFirst(next + 2 + delimiter.count)
        }
        guard rest.starts(with: Array("--".utf8)) else { return nil }
        self.parts = parts
    }

    private static func quoted(_ key: String, in line: String) -> String? {
        guard let range = line.range(of: "; \(key)=\"") else { return nil }
        let value = line[range.upperBound...]
        guard let end = value.firstIndex(of: "\"") else { return nil }
        return String(value[..<end])
    }
}
