/// `PROGRAM version`: the same line as `--version` and `-V`, for those who type
/// it as a command; a program lists this type and `CommandTree.dispatch` answers it.
package struct VersionCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        name: "version",
        abstract: "Show the version.",
        discussion: "The program's name and version, as --version and -V print them, then what the build was made from.")

    package init() {}

    package static func examples(program: String) -> [Example] {
        [Example("Print the version", "\(program) version"),
         Example("The same, as an option", "\(program) -V")]
    }
}
