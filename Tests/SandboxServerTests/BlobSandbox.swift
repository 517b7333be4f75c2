// A real chatctl-sandbox for the content API's process tests: REST over sockets, the
// storage endpoint with curl (the multipart upload a QuickBlox client makes, ranged GETs).
import Foundation
import Testing
import TestSupport

/// One curl exchange: status, headers (names lowercased) and where the body went.
struct CurlResult {
    var status: Int
    var headers: [String: String]
    /// The body, when it was not written to a file.
    var body: String
    var stderr: String
}

/// A blob as `POST /blobs.json` answered it.
struct CreatedBlob {
    var id: Int
    var uid: String
    /// `blob_object_access.params`: the upload URL with the policy's fields as its query.
    var params: String
    var object: [String: Any]
}

/// A REST-only sandbox keeping its database (and so its blobs) in a directory of the test's.
final class BlobSandbox {
    let directory: TemporaryDirectory
    let sandbox: SandboxProcess
    /// `--db`: the blobs live in `{database}.blobs`.
    let database: String
    var blobDirectory: String { database + ".blobs" }

    /// `chat`: with XMPP (and so a certificate) too; `launch`: inside a limit (`SandboxProcess`).
    init(_ arguments: [String] = [], directory: TemporaryDirectory? = nil, database name: String = "sandbox.sqlite", chat: Bool = false,
         launch: ((String, [String]) -> (path: String, arguments: [String]))? = nil) throws {
        let directory = try directory ?? TemporaryDirectory(prefix: "chatctl-blobs")
        self.directory = directory
        database = directory.file(name)
        sandbox = try SandboxProcess(arguments: (chat ? [] : ["--no-chat"]) + ["--db", database] + arguments, launch: launch)
    }

    /// Signs `login` up and opens a user session; its id and token.
    func user(_ login: String) throws -> (id: Int, token: String) {
        let id = try signUpUser(on: sandbox, login: login, password: "\(login)-secret-1")
        return (id, try sandbox.createSession(login: login, password: "\(login)-secret-1"))
    }

    /// `POST /blobs.json` with a form body.
    func create(token: String?, name: String = "cat.jpg", contentType: String = "image/jpeg",
                isPublic: Bool? = nil) throws -> SandboxHTTPResponse {
        var params = [("blob[content_type]", contentType), ("blob[name]", name)]
        if let isPublic { params.append(("blob[public]", isPublic ? "true" : "false")) }
        return try sandbox.response(method: "POST", path: "/blobs.json", params: params, token: token)
    }

    func newBlob(token: String, name: String = "cat.jpg", contentType: String = "image/jpeg",
                 isPublic: Bool? = nil) throws -> CreatedBlob {
        try Self.created(create(token: token, name: name, contentType: contentType, isPublic: isPublic))
    }

    static func created(_ r: SandboxHTTPResponse) throws -> CreatedBlob {
        guard r.status == 201, let blob = (r.json as? [String: Any])?["blob"] as? [String: Any],
              let id = blob["id"] as? Int, let uid = blob["uid"] as? String,
              let params = (blob["blob_object_access"] as? [String: Any])?["params"] as? String else {
            throw TestSupportError("POST /blobs.json answered \(r.status): \(r.body)")
        }
        return CreatedBlob(id: id, uid: uid, params: params, object: blob)
    }

    /// The upload a QuickBlox client makes (docs/protocol.md §8): a multipart POST to the
    /// scheme, host and path of `params`, every query pair a field in URL order (after
    /// `fields` has its say), `file` last; `headers` as `Name: value` lines.
    func upload(_ params: String, file: String, headers: [String] = [],
                fields change: ([(String, String)]) -> [(String, String)] = { $0 }) throws -> CurlResult {
        guard let url = URLComponents(string: params) else { throw TestSupportError("params is not a URL: \(params)") }
        let target = "\(url.scheme ?? "http")://\(url.host ?? ""):\(url.port ?? 80)\(url.path)"
        var arguments = headers.flatMap { ["-H", $0] }
        for item in change((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }) {
            arguments += ["--form-string", "\(item.0)=\(item.1)"]
        }
        return try curl(arguments + ["-F", "file=@\(file)", target])
    }

    /// `PUT /blobs/{id}/complete.json`.
    func complete(_ blob: CreatedBlob, size: Int, token: String, name: String = "blob[size]") throws -> SandboxHTTPResponse {
        try sandbox.response(method: "PUT", path: "/blobs/\(blob.id)/complete.json", params: [(name, String(size))], token: token)
    }

    /// `GET /blobs/{uid}.json` with the token in `QB-Token` (or none); the answer, not followed.
    func download(_ uid: String, token: String?) throws -> SandboxHTTPResponse {
        try sandbox.response(method: "GET", path: "/blobs/\(uid).json", token: token)
    }

    /// The storage URL `GET /blobs/{uid}.json` redirects to.
    func location(_ uid: String, token: String?) throws -> String {
        let r = try download(uid, token: token)
        guard r.status == 301, let location = r.headers["location"] else {
            throw TestSupportError("GET /blobs/\(uid).json answered \(r.status): \(r.body)")
        }
        return location
    }

    /// A GET of a storage URL; the body to `output` when given; `headers` as `Name: value` lines.
    func get(_ url: String, range: String? = nil, output: String? = nil, headers: [String] = []) throws -> CurlResult {
        var arguments = headers.flatMap { ["-H", $0] }
        if let range { arguments += ["-H", "Range: \(range)"] }
        if let output { arguments += ["-o", output] }
        return try curl(arguments + [url])
    }

    /// Runs curl, the status from `-w`, the headers from `-D`.
    func curl(_ arguments: [String], timeout: Double = 120) throws -> CurlResult {
        let headers = directory.file("headers-\(UUID().uuidString)")
        let body = directory.file("body-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: headers)
            try? FileManager.default.removeItem(atPath: body)
        }
        let writesBody = arguments.contains("-o")
        let run = try runProcess("/usr/bin/curl", ["-sS", "-D", headers, "-w", "%{http_code}"]
                                 + (writesBody ? [] : ["-o", body]) + arguments, timeout: timeout)
        guard !run.timedOut, let status = Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSupportError("curl \(arguments) failed (\(run.status)): \(run.stdout) \(run.stderr)")
        }
        var fields: [String: String] = [:]
        // The last response's headers (a 100 Continue may come first).
        let blocks = ((try? String(contentsOfFile: headers, encoding: .utf8)) ?? "").components(separatedBy: "\r\n\r\n")
        for line in blocks.last(where: { !$0.isEmpty })?.components(separatedBy: "\r\n") ?? [] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let text = writesBody ? "" : ((try? String(contentsOfFile: body, encoding: .utf8)) ?? "")
        return CurlResult(status: status, headers: fields, body: text, stderr: run.stderr)
    }

    /// The files in the blob directory (complete ones by uid, uploads under way as `.upload-…`).
    func storedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: blobDirectory)) ?? []).sorted()
    }

    /// A file of `size` bytes that differ from one MiB to the next.
    func makeFile(_ name: String, size: Int) throws -> String {
        let path = directory.file(name)
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for i in block.indices { block[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
        var written = 0, index = 0
        while written < size {
            block[0] = UInt8(truncatingIfNeeded: index)
            block[1] = UInt8(truncatingIfNeeded: index >> 8)
            let count = min(block.count, size - written)
            try handle.write(contentsOf: block.prefix(count))
            written += count
            index += 1
        }
        return path
    }
}

/// Whether two files hold the same bytes, compared a MiB at a time.
func sameContents(_ a: String, _ b: String) throws -> Bool {
    let x = try FileHandle(forReadingFrom: URL(fileURLWithPath: a)), y = try FileHandle(forReadingFrom: URL(fileURLWithPath: b))
    defer { try? x.close(); try? y.close() }
    while true {
        let p = try x.read(upToCount: 1 << 20) ?? Data(), q = try y.read(upToCount: 1 << 20) ?? Data()
        if p != q { return false }
        if p.isEmpty { return true }
    }
}

/// The peak resident memory of a process so far (`VmHWM`), in bytes.
func peakResidentBytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) }) else {
        throw TestSupportError("no VmHWM in /proc/\(pid)/status")
    }
    return kilobytes * 1024
}
