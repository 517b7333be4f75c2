import ChatView
import CommandLineKit

/// `chat --images auto|symbols|sixel|kitty|none`: its cases are its spellings.
extension ImageMode: ExpressibleByArgument {}
