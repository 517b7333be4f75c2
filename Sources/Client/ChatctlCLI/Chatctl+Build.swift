internal import CBuildInfo

/// What this build is: its version (shown by `--version`, the man page and the
/// User-Agent), the commit and the Swift toolchain. `make release` stamps them in
/// (Sources/CBuildInfo); a plain `swift build` says 0.1.0-dev.
extension Chatctl {
    package static let version = String(cString: chatctl_build_version())
    package static let commit = String(cString: chatctl_build_commit())
    package static let swiftVersion = BuildSwiftVersion.named(String(cString: chatctl_build_swift()))

    /// The lines a long version report adds after `chatctl VERSION`: the commit and the Swift version.
    package static let buildDetails = ["commit \(commit)", "Swift \(swiftVersion)"]
}
