#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import QuickBloxAPI
import TestSupport

extension ScriptedTransport {
    /// The body of request `index`, decoded as JSON.
    func bodyJSON(_ index: Int) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(requests[index].body))
    }
}
