import CommandLineKit

/// How `send --via` delivers: over REST, one round trip a message, or over the
/// chat stream, acknowledged in batches.
enum SendRoute: String, CaseIterable, ExpressibleByArgument {
    case chat, rest
}
