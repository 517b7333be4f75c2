import CommandLineKit
import Presentation

/// `export --format md|html|jsonl`: its cases are its spellings.
extension ExportFormat: ExpressibleByArgument {}
