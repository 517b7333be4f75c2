// What every fuzz target's main.swift calls: libFuzzer's driver with the process's
// own argv (-max_total_time, corpus directories, …) and the target's body.
//
// SwiftPM links an executable's main.swift as `main` (--defsym main=<Target>_main),
// which wins over libFuzzer's own main; that main is still linked (the runtime goes in
// whole), so it needs LLVMFuzzerTestOneInput, which hands inputs to the same body.
internal import CFuzzerDriver
import Foundation

nonisolated(unsafe) private var body: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    body(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// Runs libFuzzer over `fuzz`, which gets each input's bytes; never returns.
package func runFuzzer(_ fuzz: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
    body = fuzz
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) })
}
