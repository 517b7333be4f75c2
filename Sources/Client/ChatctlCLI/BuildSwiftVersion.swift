/// The Swift version a build names: the toolchain's exact one when `make release`
/// stamped it, else the compiler's major.minor, which the compiler itself knows.
enum BuildSwiftVersion {
    static func named(_ stamped: String) -> String {
        if !stamped.isEmpty { return stamped }
        #if compiler(>=6.4)
        return "6.4 or later"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }
}
