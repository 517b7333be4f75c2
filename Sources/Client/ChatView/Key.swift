/// A key as the terminal edge decodes it.
package enum Key: Hashable, Sendable {
    /// Printable text (one character).
    case character(Character)
    case enter
    /// ^J: a new line inside the message.
    case newline
    case backspace, delete
    case left, right, up, down
    case wordLeft, wordRight
    case home, end, pageUp, pageDown
    case tab, escape
    /// ^A … ^Z as their letter (`.control("w")` is ^W).
    case control(Character)
    case wheelUp, wheelDown
    /// Keys the view has no use for yet, decoded so they are never taken for Esc or text.
    case insert
    /// F1 … F20 as their number.
    case function(Int)
}
