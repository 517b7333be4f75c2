#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The escape sequence that puts text on a terminal's clipboard: OSC 52 with the
/// clipboard `c` and the text as base64 (so no byte of it can end the sequence),
/// ended by BEL, which more terminals take than ST.
enum ClipboardSequence {
    static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }
}
