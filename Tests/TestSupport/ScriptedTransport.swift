import HTTPTransport

/// A fake transport: answers each request with the next scripted reply, and records
/// every request it was asked.
package final class ScriptedTransport: HTTPTransporting {
    package enum Reply: Sendable {
        case status(Int, String = "", headers: [HTTPHeader] = [])
        /// A transport failure at the requested URL.
        case failure(HTTPError.Kind, detail: String = "scripted failure")
    }

    package var script: [Reply]
    package private(set) var requests: [HTTPRequest] = []

    package init(_ script: [Reply]) { self.script = script }

    package func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        requests.append(request)
        guard !script.isEmpty else { throw HTTPError(kind: .other, url: request.url, detail: "script exhausted") }
        switch script.removeFirst() {
        case .status(let status, let body, let headers):
            return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
        case .failure(let kind, let detail):
            throw HTTPError(kind: kind, url: request.url, detail: detail)
        }
    }

    /// "METHOD last-path-segment…" of each request, e.g. "POST session.json".
    package var paths: [String] {
        requests.map { "\($0.method) " + ($0.url.split(separator: "/", maxSplits: 3).last.map(String.init) ?? "") }
    }
}

/// A scripted HTTP answer.
package func reply(_ status: Int, _ body: String = "", headers: [HTTPHeader] = []) -> ScriptedTransport.Reply {
    .status(status, body, headers: headers)
}

extension HTTPRequest {
    /// The first value of header `name`, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
