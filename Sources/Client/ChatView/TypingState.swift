/// A chat state (XEP-0085) as far as the view cares.
package enum TypingState: String, Hashable, Sendable {
    case composing, paused, active, inactive, gone
}
