// libFuzzer target: the sandbox's JSON parser (request bodies, docs/protocol.md §4).
// Any input is parsed; what it accepts must serialize and parse back to the same value.
import FuzzSupport
import SandboxJSON

runFuzzer { input in
    let bytes = Array(input)
    guard let value = try? JSONParser.parse(bytes) else { return }
    let text = value.serialized
    guard let again = try? JSONParser.parse(Array(text.utf8)) else {
        fatalError("the parser accepted an input whose serialization it refuses: \(text)")
    }
    precondition(again == value, "parse(serialize(v)) != v for \(text)")
}
