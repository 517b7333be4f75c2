import Testing
@testable import Transfers

/// What a file is comes from its bytes (libmagic), and its QuickBlox `type` from
/// the MIME type (docs/protocol.md §8).
@Suite struct ContentTypeTests {
    @Test(arguments: [
        ("image/jpeg", AttachmentKind.image), ("image/svg+xml", .image), ("IMAGE/PNG; charset=binary", .image),
        ("video/mp4", .video), ("video/x-matroska", .video), ("audio/mpeg", .audio), ("audio/ogg", .audio),
        ("application/pdf", .file), ("text/plain", .file), ("application/octet-stream", .file), ("", .file), ("image", .file),
    ])
    func theTopLevelTypeDecidesTheKind(_ mime: String, _ kind: AttachmentKind) {
        #expect(AttachmentKind(mimeType: mime) == kind)
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52,
                               0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]
    static let pdf: [UInt8] = Array("%PDF-1.7\n%\u{e2}\u{e3}\n1 0 obj\n<<>>\nendobj\n".utf8)
    static let mp3: [UInt8] = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0] + [0xFF, 0xFB, 0x90, 0x64] + Array(repeating: 0, count: 100)
    static let mp4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
    static let wav: [UInt8] = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x44, 0xAC, 0, 0, 0x88, 0x58, 1, 0, 2, 0, 16, 0]
    static let text: [UInt8] = Array("hello, this is plain text\n".utf8)

    @Test(arguments: [
        (png, "image/png"), (jpeg, "image/jpeg"), (gif, "image/gif"), (pdf, "application/pdf"), (mp3, "audio/mpeg"),
        (mp4, "video/mp4"), (wav, "audio/x-wav"), (text, "text/plain"),
    ])
    func libmagicJudgesTheBytes(_ bytes: [UInt8], _ mime: String) throws {
        let sniffer = try ContentSniffer()
        #expect(sniffer.mimeType(of: bytes) == mime)
    }

    @Test func nothingToJudgeIsAnOctetStream() throws {
        let sniffer = try ContentSniffer()
        #expect(sniffer.mimeType(of: []) == "application/octet-stream")
    }

    @Test(arguments: [
        ("cat.jpg", "cat.jpg"), ("../../etc/passwd", "_._etc_passwd"), ("/abs/path.png", "_abs_path.png"),
        ("a\\b.txt", "a_b.txt"), (".bashrc", "bashrc"), ("...hidden", "hidden"), ("..", "UID"), (".", "UID"), ("", "UID"),
        ("re\u{1B}[31mport\u{7}.pdf", "re[31mport.pdf"), ("photo\u{202E}gpj.exe", "photogpj.exe"), ("a..b", "a.b"),
        ("  spaced  ", "spaced"), ("zero\u{200B}width", "zerowidth"), ("ünï cödé.txt", "ünï cödé.txt"),
    ])
    func namesFromOthersAreMadeSafe(_ name: String, _ safe: String) {
        #expect(SafeFileName.make(name, fallback: "UID") == safe)
    }

    @Test func aMissingNameIsTheUidAndALongOneKeepsItsExtension() {
        #expect(SafeFileName.make(nil, fallback: "30a8bcd7c714417eb62b95350d7e13b900") == "30a8bcd7c714417eb62b95350d7e13b900")
        let long = String(repeating: "é", count: 300) + ".jpeg"
        let safe = SafeFileName.make(long, fallback: "u")
        #expect(safe.utf8.count <= SafeFileName.maximumBytes)
        #expect(safe.hasSuffix("é.jpeg"))
    }
}
