// libFuzzer target: the sandbox's XML stream parser (expat, docs/protocol.md §7).
// The input is fed as a client's bytes arrive, in two reads split where its first
// byte says; a stream restarts after <auth/> or <starttls/> the way
// XMPPClientConnection restarts it, so the suspend-and-reset path is fuzzed too.
import FuzzSupport
import SandboxXML

runFuzzer { input in
    guard let first = input.first else { return }
    let bytes = Array(input.dropFirst())
    let split = min(Int(first), bytes.count)
    // Small limits, so the fuzzer reaches them.
    let parser = XMLStreamParser(maxElementBytes: 4096, maxDepth: 8)
    var restart = false
    parser.handler = { event in
        if case .element(let element) = event {
            _ = element.serialized()
            if element.name == "auth" || element.name == "starttls" { restart = true; return false }
        }
        return true
    }
    for chunk in [bytes[..<split], bytes[split...]] {
        var offset = chunk.startIndex
        while offset < chunk.endIndex {
            switch chunk[offset...].withUnsafeBytes({ parser.feed($0) }) {
            case .consumedAll:
                offset = chunk.endIndex
            case .failed:
                return
            case .suspended(let consumed):
                precondition(consumed >= 0 && consumed <= chunk.endIndex - offset, "suspended past the bytes fed")
                offset += consumed
                guard restart else { return }
                restart = false
                parser.reset()
            }
        }
    }
}
