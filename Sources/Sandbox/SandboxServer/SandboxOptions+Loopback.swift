import SandboxHTTP

extension SandboxOptions {
    /// True when `host` reaches only this machine: `localhost`, 127.0.0.0/8, `::1` (or an
    /// IPv4-mapped 127 address). Anything else, a name included, may face a network.
    package var listensOnLoopbackOnly: Bool { PeerAddress.isLoopback(host) }
}
