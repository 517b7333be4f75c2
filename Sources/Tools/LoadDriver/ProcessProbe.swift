#if canImport(Glibc)
import Glibc
#endif

/// What the kernel says about the sandbox process: resident memory and CPU time used.
package struct ProcessProbe: Sendable {
    package let pid: Int32

    package init(pid: Int32) { self.pid = pid }

    /// VmRSS in KiB; nil when the process is gone.
    package var residentKiB: Int? { statusField("VmRSS:") }

    /// VmHWM (peak resident) in KiB.
    package var peakResidentKiB: Int? { statusField("VmHWM:") }

    /// Open file descriptors.
    package var openFiles: Int? {
        guard let dir = opendir("/proc/\(pid)/fd") else { return nil }
        defer { closedir(dir) }
        var count = 0
        while readdir(dir) != nil { count += 1 }
        return max(0, count - 2)
    }

    /// User + system CPU seconds used so far (utime and stime of /proc/PID/stat).
    package var cpuSeconds: Double? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private func statusField(_ name: String) -> Int? {
        guard let text = read("/proc/\(pid)/status"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    private func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Raises this process's open-file limit to its hard limit (a thousand streams need more than
/// the usual 1,024); returns the soft limit now in force.
package func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return limit.rlim_cur >= UInt(Int.max) ? Int.max : Int(limit.rlim_cur)
}
