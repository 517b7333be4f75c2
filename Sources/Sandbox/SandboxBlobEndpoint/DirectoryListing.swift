// The names in a directory, read with readdir(3) without reading past its records.
#if canImport(Glibc)
import Glibc
#endif

/// What a directory holds, by name; the sandbox's scratch and blob directories use it.
package enum DirectoryListing {
    /// The names in `directory` but `.` and `..`; nil when it cannot be opened.
    package static func names(in directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = Self.name(of: entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The entry's NUL-terminated name, read in place. A `dirent` from readdir is only
    /// as long as its name (`d_reclen`), not `sizeof(struct dirent)`: copying the
    /// 256-byte `d_name` field reads past the record (AddressSanitizer found it).
    static func name(of entry: UnsafePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
    }
}
