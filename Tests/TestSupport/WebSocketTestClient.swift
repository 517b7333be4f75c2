import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small blocking WebSocket client (RFC 6455) for tests of the sandbox's WebSocket
/// port: the opening handshake with a chosen subprotocol, masked frames out, whole
/// messages in. Written here on purpose, so a test can also send what no real client
/// would (binary frames, garbage); the client nobody here wrote is Strophe.js.
package final class WebSocketTestClient {
    package enum Frame: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
        /// The peer's close frame: its status code (nil when absent) and reason.
        case close(code: Int?, reason: String)
    }

    package let connection: TCPConnection
    /// The HTTP status of the handshake's answer (101 when upgraded).
    package let status: Int
    /// The answer's header lines, names lowercased.
    package let headers: [String: String]
    private var buffer: [UInt8] = []
    private var closed = false

    package init(host: String = "127.0.0.1", port: Int, subprotocol: String? = "xmpp", path: String = "/",
                origin: String? = "null", timeout: Double = 5) throws {
        connection = try TCPConnection(host: host, port: port)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        if let origin { request += "Origin: \(origin)\r\n" }
        connection.send(Array((request + "\r\n").utf8))
        let deadline = Date().addingTimeInterval(timeout)
        var head: [UInt8] = []
        while true {
            if let end = Self.find(Array("\r\n\r\n".utf8), in: head) {
                buffer = Array(head[(end + 4)...])
                head = Array(head[..<end])
                break
            }
            guard let more = Self.read(connection.fd, until: deadline), !more.isEmpty else {
                throw TestSupportError("no complete WebSocket handshake answer within \(timeout) s (got \(head.count) bytes)")
            }
            head += more
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        status = statusWords.count > 1 ? Int(statusWords[1]) ?? 0 : 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        headers = fields
    }

    // MARK: sending

    package func sendText(_ text: String) { sendFrame(opcode: 0x1, payload: Array(text.utf8)) }

    /// One frame, masked as a client must; `final: false` starts a fragmented message.
    package func sendFrame(opcode: UInt8, payload: [UInt8], final: Bool = true) {
        var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default: frame.append(0x80 | 127); frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        connection.send(frame)
    }

    /// A close frame with `code` (and no reason).
    package func sendClose(code: Int = 1000) {
        sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xff)])
    }

    // MARK: receiving

    /// The next whole message or close frame; nil when nothing came within `timeout`
    /// seconds or the connection ended. Pings and close frames are answered, pongs skipped.
    package func receive(timeout: Double = 5) -> Frame? {
        let deadline = Date().addingTimeInterval(timeout)
        var message: [UInt8] = []
        var messageOpcode: UInt8 = 0
        while true {
            guard let (final, opcode, payload) = nextFrame(until: deadline) else { return nil }
            switch opcode {
            case 0x8:
                // Answer it, as RFC 6455 §5.5.1 asks (the server otherwise waits for the answer).
                sendFrame(opcode: 0x8, payload: Array(payload.prefix(2)))
                let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
                return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
            case 0x9: sendFrame(opcode: 0xA, payload: payload); continue
            case 0xA: continue
            case 0x0: message += payload
            default: messageOpcode = opcode; message = payload
            }
            if final { return messageOpcode == 0x2 ? .binary(message) : .text(String(decoding: message, as: UTF8.self)) }
        }
    }

    /// Text messages until one satisfies `predicate` (returned with all before it), or
    /// until a close frame, the end of the connection or `timeout`.
    package func receiveTexts(until predicate: (String) -> Bool, timeout: Double = 5) -> (texts: [String], matched: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var texts: [String] = []
        while let frame = receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard case .text(let text) = frame else { return (texts, false) }
            texts.append(text)
            if predicate(text) { return (texts, true) }
        }
        return (texts, false)
    }

    /// Everything until the server's close frame: the texts before it and the frame itself.
    package func receiveUntilClose(timeout: Double = 5) -> (texts: [String], close: Frame?) {
        let deadline = Date().addingTimeInterval(timeout)
        var texts: [String] = []
        while let frame = receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if case .text(let text) = frame { texts.append(text) } else if case .close = frame { return (texts, frame) }
        }
        return (texts, nil)
    }

    /// Whether the server hangs up (end of file) within `timeout` seconds.
    package func waitForDisconnect(timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !closed {
            guard Date() < deadline else { return false }
            if let more = Self.read(connection.fd, until: deadline) {
                if more.isEmpty { closed = true } else { buffer += more }
            }
        }
        return true
    }

    private func nextFrame(until deadline: Date) -> (Bool, UInt8, [UInt8])? {
        while true {
            if let frame = parseFrame() { return frame }
            guard !closed, let more = Self.read(connection.fd, until: deadline) else { return nil }
            if more.isEmpty { closed = true; return nil }
            buffer += more
        }
    }

    /// One unmasked server frame from the front of the buffer, if it is all there.
    private func parseFrame() -> (Bool, UInt8, [UInt8])? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let frame = (buffer[0] & 0x80 != 0, buffer[0] & 0x0f, Array(buffer[offset..<(offset + length)]))
        buffer.removeFirst(offset + length)
        return frame
    }

    /// Bytes read before `deadline`: nil on timeout, empty at end of file.
    private static func read(_ fd: Int32, until deadline: Date) -> [UInt8]? {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 0.5) * 1000) + 1)
            if ready < 0 && errno != EINTR { return [] }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            return n <= 0 ? [] : Array(chunk[0..<n])
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
