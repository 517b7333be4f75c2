// libFuzzer target: the argument parser (CommandLineKit) over chatctl's and
// chatctl-sandbox's real command trees. The input is argv split at NUL bytes (the
// first byte picks the program); dispatch answers help, versions, man pages,
// completions and usage errors, and binds the command an invocation would run.
import FuzzSupport
import ChatctlCLI
import CommandLineKit
import SandboxCLI

private let trees = [CommandTree(root: Chatctl.self), CommandTree(root: ChatctlSandbox.self)]

runFuzzer { input in
    guard let first = input.first else { return }
    let tree = trees[Int(first) % trees.count]
    let argv = input.count == 1 ? [] : input.dropFirst()
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    var printed = 0
    switch tree.dispatch(argv, out: { printed += $0.utf8.count }, err: { printed += $0.utf8.count }) {
    case .finished(let status):
        precondition(status == 0 || status == 2, "status \(status)")
        if status == 2 { precondition(printed > 0, "a usage error without a message") }
    case .run(let invocation):
        _ = "\(invocation.command)"
    }
}
