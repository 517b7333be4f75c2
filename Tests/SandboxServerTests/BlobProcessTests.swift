// The content API of the real chatctl-sandbox (docs/protocol.md §8): blob REST calls over
// sockets, the storage endpoint driven by curl as a QuickBlox client drives it.
import Foundation
import Testing
import TestSupport

@Suite struct BlobRESTProcessTests {
    @Test func creatingABlobAnswersTheContractsObjectWithAnUploadURL() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let r = try s.create(token: alice.token)
        let blob = try BlobSandbox.created(r)
        #expect(blob.uid.count == 34 && blob.uid.hasSuffix("00") && blob.uid.allSatisfy(\.isHexDigit))
        #expect(blob.object["content_type"] as? String == "image/jpeg")
        #expect(blob.object["name"] as? String == "cat.jpg")
        #expect(blob.object["public"] as? Bool == false)
        #expect(blob.object["size"] is NSNull)
        #expect(blob.object["blob_status"] is NSNull)
        let access = try #require(blob.object["blob_object_access"] as? [String: Any])
        #expect(access["id"] as? Int == blob.id && access["blob_id"] as? Int == blob.id)
        #expect(access["object_access_type"] as? String == "Write")
        #expect((access["expires"] as? String)?.hasSuffix("Z") == true)
        // A whole URL: the storage endpoint (not the REST port), the contract's path, the
        // policy's fields as query pairs in the current accounts' order.
        let url = try #require(URLComponents(string: blob.params))
        #expect(url.scheme == "http" && url.host == "127.0.0.1")
        #expect(url.port != nil && url.port != s.sandbox.apiHostPort.port)
        #expect(url.path == "/blobs/\(blob.id)/upload/")
        #expect(url.queryItems?.map(\.name) == ["acl", "content_type", "expires", "key", "policy", "success_action_status",
                                                "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature"])
        #expect(url.queryItems?.first { $0.name == "key" }?.value == blob.uid)
        #expect(url.queryItems?.first { $0.name == "acl" }?.value == "authenticated-read")
    }

    @Test func aJSONBodyCreatesAPublicBlob() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let r = try s.sandbox.send(method: "POST", path: "/blobs.json",
                                   body: #"{"blob":{"content_type":"text/plain","name":"notes.txt","public":true}}"#,
                                   contentType: "application/json", token: alice.token)
        let blob = try BlobSandbox.created(r)
        #expect(blob.object["public"] as? Bool == true)
        #expect(blob.object["name"] as? String == "notes.txt")
        #expect(blob.params.contains("acl=public-read"))
    }

    @Test func creatingNeedsANameATypeAndAUser() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blank = try s.create(token: alice.token, name: "", contentType: "")
        #expect(blank.status == 422)
        #expect(blank.body == #"{"errors":{"content_type":["can't be blank"],"name":["can't be blank"]}}"#)
        let bad = try s.create(token: alice.token, contentType: "image/jpeg\r\nX-Evil: 1")
        #expect(bad.status == 422 && bad.body.contains("content_type"))
        #expect(try s.create(token: s.sandbox.createSession()).body == #"{"errors":{"base":["Forbidden. Need user."]}}"#)
        #expect(try s.create(token: nil).status == 401)
    }

    @Test func anUploadedBlobIsCompletedAndDownloadedWithRanges() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token)
        let file = try s.makeFile("cat.jpg", size: 100_000)

        let upload = try s.upload(blob.params, file: file)
        #expect(upload.status == 201)
        // S3's PostResponse for success_action_status 201, its ETag the file's MD5.
        let md5 = try runProcess("/usr/bin/md5sum", [file]).stdout.prefix(32)
        #expect(upload.body.contains("<PostResponse><Location>http://127.0.0.1:") && upload.body.contains("/files/\(blob.uid)</Location>"))
        #expect(upload.body.contains("<Bucket>sandbox</Bucket><Key>\(blob.uid)</Key><ETag>\"\(md5)\"</ETag></PostResponse>"))
        #expect(s.storedFiles() == [blob.uid])
        // Not completed yet: nothing to download.
        #expect(try s.download(blob.uid, token: alice.token).status == 404)

        let wrong = try s.complete(blob, size: 99_999, token: alice.token)
        #expect(wrong.status == 422)
        #expect(wrong.body == #"{"errors":{"size":["does not match the uploaded file (100000 bytes)"]}}"#)
        let done = try s.complete(blob, size: 100_000, token: alice.token, name: "size")   // the JS SDK's spelling
        #expect(done.status == 200 && done.body.isEmpty)
        // evhttp's default, kept alive as long as evhttp (it once pointed at freed memory).
        #expect(done.headers["content-type"] == "application/json")
        #expect(try s.complete(blob, size: 100_000, token: alice.token).status == 200, "completing again is harmless")

        let meta = try s.sandbox.response(method: "GET", path: "/blobs/\(blob.id).json", token: alice.token)
        let object = try #require((meta.json as? [String: Any])?["blob"] as? [String: Any])
        #expect(object["size"] as? Int == 100_000)
        #expect(object["blob_status"] as? String == "complete")
        #expect(object["uid"] as? String == blob.uid)

        let location = try s.location(blob.uid, token: alice.token)
        #expect(location.hasPrefix(blob.params.components(separatedBy: "/blobs/")[0] + "/files/\(blob.uid)?"))
        // The token may come in the query, as in the SDKs' private URLs.
        let byQuery = try s.sandbox.send(method: "GET", path: "/blobs/\(blob.uid).json", query: "token=\(alice.token)")
        #expect(byQuery.status == 301 && byQuery.headers["location"]?.contains("/files/\(blob.uid)?") == true)

        let output = s.directory.file("download")
        let whole = try s.get(location, output: output)
        #expect(whole.status == 200)
        #expect(whole.headers["content-type"] == "image/jpeg")
        #expect(whole.headers["content-length"] == "100000")
        #expect(whole.headers["accept-ranges"] == "bytes")
        #expect(try sameContents(file, output))

        let twice = try runProcess("/usr/bin/curl", ["-sS", "-w", "%{http_code} %{num_connects}\n",
                                                     "-o", "/dev/null", location, "-o", "/dev/null", location], timeout: 30)
        #expect(twice.stdout == "200 1\n200 0\n", "a second GET goes over the same connection")

        let part = try s.get(location, range: "bytes=10-19", output: output)
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 10-19/100000")
        #expect(part.headers["content-length"] == "10")
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == original[10..<20])

        let tail = try s.get(location, range: "bytes=99990-", output: output)
        #expect(tail.status == 206 && tail.headers["content-range"] == "bytes 99990-99999/100000")
        let beyond = try s.get(location, range: "bytes=100000-")
        #expect(beyond.status == 416)
        #expect(beyond.headers["content-range"] == "bytes */100000")
        #expect(beyond.body.contains("<Code>InvalidRange</Code>"))
    }

    @Test func onlyTheOwnerCompletesOrDeletes() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice"), bob = try s.user("bob")
        let blob = try s.newBlob(token: alice.token)
        let early = try s.complete(blob, size: 1, token: alice.token)
        #expect(early.status == 422)
        #expect(early.body.contains("nothing has been uploaded"))
        #expect(try s.upload(blob.params, file: s.makeFile("f", size: 10)).status == 201)
        #expect(try s.complete(blob, size: 10, token: bob.token).status == 403)
        #expect(try s.complete(blob, size: 10, token: alice.token).status == 200)
        let location = try s.location(blob.uid, token: alice.token)

        #expect(try s.sandbox.response(method: "DELETE", path: "/blobs/\(blob.id).json", token: bob.token).status == 403)
        let gone = try s.sandbox.response(method: "DELETE", path: "/blobs/\(blob.id).json", token: alice.token)
        #expect(gone.status == 200 && gone.body.isEmpty)
        #expect(s.storedFiles().isEmpty, "its file goes with it")
        #expect(try s.download(blob.uid, token: alice.token).status == 404)
        #expect(try s.sandbox.response(method: "GET", path: "/blobs/\(blob.id).json", token: alice.token).status == 404)
        let stale = try s.get(location)
        #expect(stale.status == 404 && stale.body.contains("<Code>NoSuchKey</Code>"))
        #expect(try s.sandbox.response(method: "DELETE", path: "/blobs/\(blob.id).json", token: alice.token).status == 404)
        #expect(try s.complete(CreatedBlob(id: 999, uid: "", params: "", object: [:]), size: 1, token: alice.token).status == 404)
    }

    @Test func aPrivateBlobIsForItsOwnerAndTheDialogsItWasSentTo() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice"), bob = try s.user("bob"), carol = try s.user("carol")
        let blob = try s.newBlob(token: alice.token)
        #expect(try s.upload(blob.params, file: s.makeFile("f", size: 5)).status == 201)
        #expect(try s.complete(blob, size: 5, token: alice.token).status == 200)

        #expect(try s.download(blob.uid, token: bob.token).status == 403)
        #expect(try s.download(blob.uid, token: bob.token).body
                == #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#)
        #expect(try s.download(blob.uid, token: nil).body == #"{"errors":["Token is required"]}"#)
        #expect(try s.download(blob.uid, token: "0123456789012345678901234567890123456789").status == 401)
        #expect(try s.download("ffffffffffffffffffffffffffffffff00", token: alice.token).status == 404)

        // Alice sends it to bob: bob may read it now, carol still may not.
        let dialog = try s.sandbox.createDialog(token: alice.token, type: 3, occupantIds: [bob.id])
        let dialogId = try #require(dialog["_id"] as? String)
        _ = try s.sandbox.sendMessage(token: alice.token, dialogId: dialogId, text: "[attachment]", extra: [
            ("attachments[0][type]", "image"), ("attachments[0][id]", blob.uid), ("attachments[0][name]", "cat.jpg"),
        ])
        #expect(try s.download(blob.uid, token: bob.token).status == 301)
        #expect(try s.sandbox.response(method: "GET", path: "/blobs/\(blob.id).json", token: bob.token).status == 200)
        #expect(try s.download(blob.uid, token: carol.token).status == 403)
        #expect(try s.sandbox.response(method: "GET", path: "/blobs/\(blob.id).json", token: carol.token).status == 403)
    }

    @Test func aPublicBlobNeedsNoToken() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token, name: "readme.txt", contentType: "text/plain", isPublic: true)
        let file = try s.makeFile("readme.txt", size: 3)
        #expect(try s.upload(blob.params, file: file).status == 201)
        #expect(try s.complete(blob, size: 3, token: alice.token).status == 200)
        let location = try s.location(blob.uid, token: nil)
        let output = s.directory.file("out")
        let fetched = try s.get(location, output: output)
        #expect(fetched.status == 200 && fetched.headers["content-type"] == "text/plain")
        #expect(try sameContents(file, output))
    }
}

@Suite struct StorageEndpointProcessTests {
    @Test func aForgedOrAlteredPolicyIs403AndStoresNothing() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token)
        let file = try s.makeFile("f", size: 1000)
        let forged = try s.upload(blob.params, file: file) { fields in
            fields.map { $0.0 == "x-amz-signature" ? ($0.0, String(repeating: "a", count: 64)) : $0 }
        }
        #expect(forged.status == 403)
        #expect(forged.headers["content-type"] == "application/xml")
        #expect(forged.body.contains("<Error><Code>SignatureDoesNotMatch</Code>"))
        let otherKey = try s.upload(blob.params, file: file) { fields in
            fields.map { $0.0 == "key" ? ($0.0, "ffffffffffffffffffffffffffffffff00") : $0 }
        }
        #expect(otherKey.status == 403 && otherKey.body.contains("<Code>AccessDenied</Code>"))
        #expect(otherKey.body.contains("Policy Condition failed"))
        let wrongAccessKey = try s.upload(blob.params, file: file) { fields in
            fields.map { $0.0 == "x-amz-credential" ? ($0.0, $0.1.replacingOccurrences(of: "SANDBOXSTORAGEKEY", with: "STOLEN")) : $0 }
        }
        #expect(wrongAccessKey.status == 403 && wrongAccessKey.body.contains("<Code>InvalidAccessKeyId</Code>"))
        let noPolicy = try s.upload(blob.params, file: file) { $0.filter { $0.0 != "policy" } }
        #expect(noPolicy.status == 400 && noPolicy.body.contains("<Code>InvalidArgument</Code>"))
        #expect(s.storedFiles().isEmpty)
        // The genuine policy still works.
        #expect(try s.upload(blob.params, file: file).status == 201)
    }

    @Test func aFileOverMaxUploadIs413AndStoresNothing() throws {
        let s = try BlobSandbox(["--max-upload", "1K"])
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token)
        #expect(blob.params.contains("policy="))
        // The policy says so too.
        let policy = try #require(URLComponents(string: blob.params)?.queryItems?.first { $0.name == "policy" }?.value)
        let document = String(decoding: Data(base64Encoded: policy) ?? Data(), as: UTF8.self)
        #expect(document.contains(#"["content-length-range",0,1024]"#))

        let over = try s.upload(blob.params, file: s.makeFile("over", size: 1025))
        #expect(over.status == 413)
        #expect(over.body.contains("<Code>EntityTooLarge</Code>"))
        // A body far over the limit is refused from its Content-Length, before it is read.
        let huge = try s.upload(blob.params, file: s.makeFile("huge", size: 3 << 20))
        #expect(huge.status == 413 && huge.body.contains("<Code>EntityTooLarge</Code>"))
        #expect(s.storedFiles().isEmpty)
        #expect(try s.upload(blob.params, file: s.makeFile("fits", size: 1024)).status == 201)
    }

    /// libmicrohttpd notices most cut connections at once, but now and then only
    /// at the idle timeout: the file must be gone by then at the latest.
    @Test func anUploadCutShortLeavesNoFile() throws {
        let s = try BlobSandbox(["--http-timeout", "3"])
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token)
        let url = try #require(URLComponents(string: blob.params))
        let boundary = "chatctl-test-boundary"
        var body = ""
        for item in url.queryItems ?? [] {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(item.name)\"\r\n\r\n\(item.value ?? "")\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        let head = "POST \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Content-Length: \(body.utf8.count + 10_000_000)\r\n\r\n"
        let connection = try TCPConnection(host: "127.0.0.1", port: try #require(url.port))
        connection.send(Array((head + body).utf8) + [UInt8](repeating: 0x5A, count: 1 << 20))
        try waitUntil("the upload streaming to a temporary file", timeout: 20) {
            s.storedFiles().contains { $0.hasPrefix(".upload-") }
        }
        connection.shutdownWrite()
        withExtendedLifetime(connection) {}
        try waitUntil("the temporary file removed once the client is gone", timeout: 20) { s.storedFiles().isEmpty }
    }

    @Test func aBigUploadAndDownloadAreStreamedNotBuffered() throws {
        let size = 64 << 20
        let s = try BlobSandbox(["--max-upload", "1G"])
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token, name: "big.bin", contentType: "application/octet-stream")
        let file = try s.makeFile("big.bin", size: size)
        let pid = s.sandbox.process.processIdentifier
        let before = try peakResidentBytes(of: pid)

        #expect(try s.upload(blob.params, file: file).status == 201)
        #expect(try s.complete(blob, size: size, token: alice.token).status == 200)
        let output = s.directory.file("big.out")
        let fetched = try s.get(s.location(blob.uid, token: alice.token), output: output)
        #expect(fetched.status == 200 && fetched.headers["content-length"] == String(size))
        #expect(try sameContents(file, output))

        let after = try peakResidentBytes(of: pid)
        #expect(after - before < 16 << 20, "peak RSS grew by \(after - before) bytes for a \(size)-byte file")
    }

    @Test func policiesAndDownloadURLsExpireAndBlobsOutliveARestart() throws {
        let directory = try TemporaryDirectory(prefix: "chatctl-blobs")
        var s: BlobSandbox? = try BlobSandbox(directory: directory)
        let alice = try s!.user("alice")
        let blob = try s!.newBlob(token: alice.token)
        let file = try s!.makeFile("f", size: 2048)
        #expect(try s!.upload(blob.params, file: file).status == 201)
        #expect(try s!.complete(blob, size: 2048, token: alice.token).status == 200)
        s!.sandbox.stop()
        s = nil

        // The same database, with URLs that last a second: the blob and its file are still there.
        let again = try BlobSandbox(["--signed-url-ttl", "1"], directory: directory)
        let token = try again.sandbox.createSession(login: "alice", password: "alice-secret-1")
        let location = try again.location(blob.uid, token: token)
        var last = try again.get(location)
        #expect(last.status == 200 || last.status == 403)
        try waitUntil("the download URL to expire", timeout: 10, every: 0.1) {
            last = try again.get(location)
            return last.status == 403
        }
        #expect(last.body.contains("<Code>AccessDenied</Code><Message>Request has expired</Message>"))

        let fresh = try again.newBlob(token: token)
        var upload = try again.upload(fresh.params, file: file)
        try waitUntil("the upload policy to expire", timeout: 10, every: 0.1) {
            upload = try again.upload(fresh.params, file: file)
            return upload.status == 403
        }
        #expect(upload.body.contains("Policy expired"))
    }

    @Test func otherMethodsAndPathsAreRefused() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token)
        let base = blob.params.components(separatedBy: "/blobs/")[0]
        #expect(try s.curl(["-X", "PUT", "--data", "x", base + "/files/\(blob.uid)"]).status == 405)
        #expect(try s.curl(["-X", "POST", "-F", "file=@/dev/null", base + "/elsewhere"]).status == 404)
        let plain = try s.curl(["--data", "a=b", base + "/blobs/\(blob.id)/upload/"])
        #expect(plain.status == 400 && plain.body.contains("multipart/form-data"))
        #expect(try s.get(base + "/files/\(blob.uid)").status == 403, "no signature")
    }

    @Test(arguments: ["12X", "0", "-1M", "K", "99999999999G"])
    func aBadMaxUploadIsAUsageError(value: String) throws {
        let run = try runProcess(productPath("chatctl-sandbox"), ["--max-upload", value], timeout: 20)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--max-upload"))
        #expect(run.stdout.isEmpty)
    }
}
