import Diagnostics

extension UploadSource {
    /// What a person named to upload: the file at `path`, or standard input for `-` (named
    /// `name`, else "stdin"); its type judged from its content. A pipe is copied into
    /// `spoolDirectory`, where the copy stays with `keepingSpool` (`spoolPath`).
    package static func at(_ path: String, name: String?, spoolDirectory: String, keepingSpool: Bool) throws(Failure) -> UploadSource {
        let sniffer = try ContentSniffer()
        if path == "-" {
            return try stream(0, name: name ?? "stdin", sniffer: sniffer, spoolDirectory: spoolDirectory, keepingSpool: keepingSpool)
        }
        return try file(at: path, name: name, sniffer: sniffer, spoolDirectory: spoolDirectory, keepingSpool: keepingSpool)
    }
}
