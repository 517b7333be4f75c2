#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
import QuickBloxAPI
import Synchronization

/// A fake transport: answers from a script, records every request.
final class ScriptedTransport: HTTPTransporting {
    var script: [Result<HTTPResponse, HTTPError>]
    private(set) var requests: [HTTPRequest] = []

    init(_ script: [Result<HTTPResponse, HTTPError>]) { self.script = script }

    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        requests.append(request)
        guard !script.isEmpty else { return HTTPResponse(status: 599, body: Array("script exhausted".utf8)) }
        return try script.removeFirst().get()
    }

    func bodyJSON(_ index: Int) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(requests[index].body))
    }
}

func reply(_ status: Int, _ body: String = "", headers: [HTTPHeader] = []) -> Result<HTTPResponse, HTTPError> {
    .success(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
}

/// Collects the delays a RetryPolicy asked for, without sleeping.
final class SleepLog: Sendable {
    let delays = Mutex<[Double]>([])
    var recorded: [Double] { delays.withLock { $0 } }
    var policy: RetryPolicy { RetryPolicy(sleep: { seconds in self.delays.withLock { $0.append(seconds) } }) }
}

extension HTTPRequest {
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
