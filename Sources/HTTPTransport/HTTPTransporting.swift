/// Anything that can carry out one HTTP exchange; tests substitute a fake.
public protocol HTTPTransporting: AnyObject {
    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
}
