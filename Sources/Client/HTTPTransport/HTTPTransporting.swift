/// Anything that can carry out one HTTP exchange; tests substitute a fake.
package protocol HTTPTransporting: AnyObject {
    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
}
