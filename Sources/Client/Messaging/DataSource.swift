/// Where a lookup may go: the cache alone (`--offline`: nothing touches the
/// network, an expired session still names the user), or the server as well,
/// for what the cache lacks or to bring it up to date first.
package enum DataSource: Sendable {
    case cacheOnly
    case server
}
