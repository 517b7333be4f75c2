// Uploads one file for `make bench` (not installed) through the library's
// BlobUploader, what `send --attach` will use once it is wired: create, upload,
// complete. The token is read from a chatctl session file, never from argv.
// Usage: BenchUpload CONFIG_JSON SESSION_JSON FILE   (prints the blob's uid)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
import QuickBloxAPI
import Transfers
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, _ code: Int32) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(code)
}

func json(_ path: String) -> JSONValue {
    guard let file = fopen(path, "r") else { fail("BenchUpload: cannot open \(path)", 2) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { fail("BenchUpload: \(path) is not JSON", 2) }
    return value
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: BenchUpload CONFIG_JSON SESSION_JSON FILE", 2) }
let config = json(arguments[1]), session = json(arguments[2])
guard let api = config["endpoints"]?["api"]?.stringValue, let appId = config["appId"]?.intValue,
      let authKey = config["authKey"]?.stringValue, let authSecret = config["authSecret"]?.stringValue,
      let token = session["token"]?.stringValue else {
    fail("BenchUpload: the config needs endpoints.api, appId, authKey, authSecret; the session a token", 2)
}
do {
    let client = QuickBloxClient(apiEndpoint: api, credentials: AppCredentials(applicationId: appId, authKey: authKey, authSecret: authSecret),
                                 transport: try CurlHTTPClient(options: HTTPClientOptions(userAgent: "chatctl-bench")))
    client.token = token
    let source = try UploadSource.file(at: arguments[3], sniffer: try ContentSniffer(), spoolDirectory: "/tmp")
    let blob = try BlobUploader(api: client).upload(source)
    print(blob.uid)
} catch {
    fail("BenchUpload: \(error)", 1)
}
