internal import CBuildInfo

/// The version `--version` and the man page show: stamped by `make release`
/// (Sources/CBuildInfo), 0.1.0-dev from a plain `swift build`.
extension ChatctlSandbox {
    package static let version = String(cString: chatctl_build_version())
}
