#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPTransport
@testable import QuickBloxAPI

/// The content API's shapes (docs/protocol.md §8): the upload URL in both forms the
/// service hands out, origins, and the storage's error bodies.
@Suite struct BlobShapeTests {
    /// Today's form: the API host, lower-case fields, values percent-encoded.
    static let currentParams = "https://api.quickblox.com/blobs/315/upload/?acl=authenticated-read&content_type=image%2Fjpeg"
        + "&expires=Mon%2C%2030%20Nov%202026%2020%3A00%3A00%20GMT&key=30a8bcd7c714417eb62b95350d7e13b900"
        + "&policy=eyJleHBpcmF0aW9uIjoiMjAyNi0xMS0zMFQyMDowMDowMFoifQ%3D%3D&success_action_status=201"
        + "&x-amz-algorithm=AWS4-HMAC-SHA256&x-amz-credential=AKIA%2F20261130%2Fus-east-1%2Fs3%2Faws4_request"
        + "&x-amz-date=20261130T190000Z&x-amz-signature=0f1e2d"

    /// The older form, as a 2012 answer shows it: an S3 bucket, S3's field names,
    /// a base64 policy with its `+` and `/` left raw.
    static let olderParams = "http://qbprod.s3.amazonaws.com/?AWSAccessKeyId=AKIAIY7KFM23XGXJ7R7A&Policy=eyAi+ZXhw/aXJh%3D"
        + "&Signature=Wt3%2Fx%2BQ%3D&key=30a8bcd7c714417eb62b95350d7e13b900&acl=authenticated-read"
        + "&success_action_status=201&Content-Type=image%2Fjpeg&Expires=Mon%2C%2023%20Apr%202012%2014%3A22%3A34%20GMT"

    @Test func todaysParamsAreTheUploadURLAndItsFieldsInOrder() throws {
        let ticket = try #require(QBBlobUploadTicket(params: Self.currentParams))
        #expect(ticket.url == "https://api.quickblox.com/blobs/315/upload/")
        #expect(ticket.origin == URLOrigin("https://api.quickblox.com"))
        #expect(ticket.fields.map(\.name) == ["acl", "content_type", "expires", "key", "policy", "success_action_status",
                                              "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature"])
        #expect(ticket.field("content_type") == "image/jpeg")
        #expect(ticket.field("expires") == "Mon, 30 Nov 2026 20:00:00 GMT")
        #expect(ticket.field("policy") == "eyJleHBpcmF0aW9uIjoiMjAyNi0xMS0zMFQyMDowMDowMFoifQ==")
        #expect(ticket.field("x-amz-credential") == "AKIA/20261130/us-east-1/s3/aws4_request")
    }

    @Test func olderS3ParamsKeepTheirNamesAndRawPluses() throws {
        let ticket = try #require(QBBlobUploadTicket(params: Self.olderParams))
        #expect(ticket.url == "http://qbprod.s3.amazonaws.com/")
        #expect(ticket.origin.host == "qbprod.s3.amazonaws.com")
        #expect(ticket.fields.map(\.name) == ["AWSAccessKeyId", "Policy", "Signature", "key", "acl", "success_action_status",
                                              "Content-Type", "Expires"])
        // decodeURIComponent, as the JavaScript SDK does: a raw `+` is a plus, not a space.
        #expect(ticket.field("policy") == "eyAi+ZXhw/aXJh=")
        #expect(ticket.field("Signature") == "Wt3/x+Q=")
        #expect(ticket.field("content-type") == "image/jpeg")
    }

    /// The largest file a policy admits, so that a file too large is refused before any byte goes.
    @Test func thePolicyNamesTheLargestFile() throws {
        func ticket(_ policy: String, field: String = "policy") throws -> QBBlobUploadTicket {
            let encoded = Data(policy.utf8).base64EncodedString()
                .replacing("+", with: "%2B").replacing("/", with: "%2F").replacing("=", with: "%3D")
            return try #require(QBBlobUploadTicket(params: "https://s.example/up/?key=k&\(field)=\(encoded)"))
        }
        let sandbox = #"{"expiration":"2026-11-30T20:39:41Z","conditions":[{"acl":"authenticated-read"},["content-length-range",0,104857600]]}"#
        #expect(try ticket(sandbox).maximumSize == 104_857_600)
        #expect(try ticket(#"{"conditions":[["Content-Length-Range","1","2048"]]}"#, field: "Policy").maximumSize == 2048)
        #expect(try ticket(#"{"expiration":"2026-11-30T20:39:41Z","conditions":[{"key":"k"}]}"#).maximumSize == nil)
        #expect(try ticket("not json").maximumSize == nil)
        #expect(try #require(QBBlobUploadTicket(params: Self.currentParams)).maximumSize == nil, "a policy without conditions")
        #expect(try #require(QBBlobUploadTicket(params: "https://s.example/up/?key=k")).maximumSize == nil)
    }

    @Test(arguments: ["", "not a url", "ftp://example.com/upload?key=1", "https:///path?key=1", "http://host:99999/"])
    func paramsThatAreNoHTTPURLAreRefused(_ params: String) {
        #expect(QBBlobUploadTicket(params: params) == nil)
    }

    @Test func aValueWithoutEqualsIsEmptyAndABrokenEscapeStaysAsWritten() throws {
        let ticket = try #require(QBBlobUploadTicket(params: "http://h/u?flag&bad=%zz%41&&=x#frag"))
        #expect(ticket.fields == [.init("flag", ""), .init("bad", "%zzA")])
        #expect(ticket.url == "http://h/u")
    }

    @Test func originsCompareSchemeHostAndPort() {
        #expect(URLOrigin("https://API.quickblox.com/blobs/1.json") == URLOrigin("https://api.quickblox.com:443"))
        #expect(URLOrigin("http://127.0.0.1:8080/x") != URLOrigin("http://127.0.0.1:8081/x"))
        #expect(URLOrigin("http://127.0.0.1:8080") != URLOrigin("http://localhost:8080"))
        #expect(URLOrigin("http://127.0.0.1") != URLOrigin("https://127.0.0.1"))
        #expect(URLOrigin("http://user:pw@[::1]:9000/p")?.host == "[::1]")
        #expect(URLOrigin("http://user:pw@[::1]:9000/p")?.port == 9000)
        #expect(URLOrigin("http://[::1]/p")?.port == 80)
        #expect(URLOrigin("file:///etc/passwd") == nil)
    }

    @Test func s3ErrorsReadAsCodeAndMessage() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AccessDenied</Code><Message>Invalid according to Policy:
              Policy expired &amp; &lt;gone&gt;</Message><RequestId>1</RequestId></Error>
            """
        #expect(StorageErrorBody.reasons(Array(xml.utf8)) == ["AccessDenied: Invalid according to Policy: Policy expired & <gone>"])
        #expect(StorageErrorBody.reasons(Array("<Error><Code>EntityTooLarge</Code></Error>".utf8)) == ["EntityTooLarge"])
        #expect(StorageErrorBody.reasons(Array(#"{"errors":["The resource wasn't found"]}"#.utf8)) == ["The resource wasn't found"])
        #expect(StorageErrorBody.reasons([]) == [])
    }

    @Test func aBlobReadsBareOrWrappedWithItsUploadTicket() throws {
        let body = """
            {"blob":{"id":315,"uid":"30a8bcd7c714417eb62b95350d7e13b900","content_type":"image/jpeg","name":"museum.jpeg",
             "size":null,"blob_status":null,"public":"false","blob_object_access":{"id":315,"blob_id":315,
             "expires":"2026-11-30T20:00:00Z","object_access_type":"Write","params":"\(Self.currentParams)"}}}
            """
        let json = try #require(try? JSONValue.decode(body))
        let blob = try #require(QBBlob(json: json))
        #expect(blob.id == 315)
        #expect(blob.uid == "30a8bcd7c714417eb62b95350d7e13b900")
        #expect(blob.size == nil)
        #expect(!blob.isPublic)
        #expect(blob.upload?.url == "https://api.quickblox.com/blobs/315/upload/")
        #expect(blob.upload?.expires == QBTimestamp.parse("2026-11-30T20:00:00Z"))
        let bare = try #require(QBBlob(json: try JSONValue.decode(#"{"id":"7","uid":"u1","size":"12","public":true,"blob_status":"complete"}"#)))
        #expect(bare.id == 7 && bare.size == 12 && bare.isPublic && bare.status == "complete" && bare.upload == nil)
        #expect(QBBlob(json: try JSONValue.decode(#"{"id":7}"#)) == nil)
    }
}

extension JSONValue {
    static func decode(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}
