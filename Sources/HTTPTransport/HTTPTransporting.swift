// CONTRACT STUB — to be replaced by the real implementation (keep these signatures).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
}

public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// Whole-transfer timeout in seconds; connecting has its own, shorter, limit.
    public var timeout: Double
    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Double = 30) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.timeout = timeout
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }
    /// Case-insensitive header lookup (first match).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case cannotConnect, timedOut, tls, invalidURL, other }
    public var kind: Kind
    /// The URL without its query string (queries may carry tokens).
    public var url: String
    public var detail: String
    public init(kind: Kind, url: String, detail: String) { self.kind = kind; self.url = url; self.detail = detail }
    public var description: String { "\(url): \(detail)" }
}

/// Anything that can carry out one HTTP exchange; tests substitute a fake.
public protocol HTTPTransporting: AnyObject {
    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
}

public struct HTTPClientOptions: Sendable {
    /// Extra CA bundle (PEM) to trust; TLS is always verified.
    public var caFile: String?
    public var connectTimeout: Double
    public var userAgent: String
    /// Receives one line per request/response for --verbose; secrets already redacted.
    public var verboseLog: (@Sendable (String) -> Void)?
    public init(caFile: String? = nil, connectTimeout: Double = 10, userAgent: String = "chatctl", verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.caFile = caFile; self.connectTimeout = connectTimeout; self.userAgent = userAgent; self.verboseLog = verboseLog
    }
}

/// libcurl easy-handle client (one handle, reused so connections are kept alive).
public final class CurlHTTPClient: HTTPTransporting {
    public init(options: HTTPClientOptions) throws(HTTPError) { fatalError("stub") }
    public func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse { fatalError("stub") }
}
