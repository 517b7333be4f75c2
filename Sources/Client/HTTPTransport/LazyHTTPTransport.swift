/// Creates the libcurl client on the first request, so commands that answer
/// from the cache (`--offline`) never load libcurl at all.
package final class LazyHTTPTransport: HTTPTransporting, HTTPFileTransferring {
    private let options: HTTPClientOptions
    private var client: CurlHTTPClient?

    package init(options: HTTPClientOptions) { self.options = options }

    private func curl() throws(HTTPError) -> CurlHTTPClient {
        if let client { return client }
        let made = try CurlHTTPClient(options: options)
        client = made
        return made
    }

    package func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try curl().perform(request)
    }

    package func upload(_ request: MultipartUploadRequest, progress: (TransferProgress) -> Void) throws(HTTPError) -> HTTPResponse {
        try curl().upload(request, progress: progress)
    }

    package func download(_ request: DownloadRequest, into sink: DownloadSink,
                  progress: (TransferProgress) -> Void) throws(HTTPError) -> DownloadResult {
        try curl().download(request, into: sink, progress: progress)
    }
}
