import CommandLineKit
import LoadDriver
#if canImport(Glibc)
import Glibc
#endif

/// A run of the driver: its declaration and what it does; returns the exit status.
protocol LoadCommand: ParsableCommand {
    func run() throws(LoadError) -> LoadReport
}

/// `BenchLoad`: the root, which only groups the two runs.
struct BenchLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "BenchLoad",
        abstract: "Load for chatctl-sandbox: its raw router rate, and many users at once.",
        discussion: """
            Connects to the sandbox whose config line is in CONFIG as chatctl does (STARTTLS \
            checked against its CA, SASL PLAIN with a session token, bind, stream management), \
            after making its users over REST, and prints one JSON object of bench rows on \
            standard output. Every run is bounded in count and time and stops by itself.
            """,
        subcommands: [RouterCommand.self, ScaleCommand.self],
        version: "0.1.0")

    init() {}

    static let tree = CommandTree(root: BenchLoad.self)

    static func main(arguments: [String]) -> Int32 {
        switch tree.dispatch(arguments, out: { write(1, $0) }, err: { write(2, $0) }) {
        case .finished(let status):
            return status
        case .run(let invocation):
            guard let command = invocation.command as? any LoadCommand else { return 2 }
            do {
                write(1, try command.run().json + "\n")
                return 0
            } catch {
                write(2, "BenchLoad: \(error)\n")
                return 1
            }
        }
    }

    static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// `value` as a positive integer, or a usage error naming `option`.
    static func number(_ value: String?, _ option: Option, default fallback: Int, in range: ClosedRange<Int>) throws(LoadError) -> Int {
        guard let value else { return fallback }
        guard let n = Int(value), range.contains(n) else {
            throw LoadError("\(option.spelling) expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(value)'")
        }
        return n
    }

    /// `--password-iterations`, when given: what the sandbox hashes new passwords with.
    static func iterations(_ value: String?, _ option: Option) throws(LoadError) -> Int? {
        guard let value else { return nil }
        return try number(value, option, default: 0, in: 1...10_000_000)
    }

    static func processId(_ value: String?, _ option: Option) throws(LoadError) -> Int32? {
        guard let value else { return nil }
        return Int32(try number(value, option, default: 0, in: 1...Int(Int32.max)))
    }

    static func rate(_ value: String?, _ option: Option, default fallback: Double) throws(LoadError) -> Double {
        guard let value else { return fallback }
        guard let n = Double(value), n >= 0, n.isFinite else {
            throw LoadError("\(option.spelling) expects a non-negative number, got '\(value)'")
        }
        return n
    }
}

/// `BenchLoad router CONFIG`: one sender streams to one receiver.
struct RouterCommand: LoadCommand {
    static let configuration = CommandConfiguration(
        name: "router", abstract: "One sender streams 1:1 messages to one receiver; the router's rate.")

    @Argument("CONFIG", help: "The sandbox's config line, as a file.", completion: .file)
    var config: String
    @Option("messages", short: "n", metavar: "N", help: "Messages to stream (default 100000).")
    var messages: String?
    @Option("window", metavar: "N", help: "Messages unacknowledged at most (default 1000).")
    var window: String?
    @Option("sandbox-pid", metavar: "PID", help: "The sandbox's process, for its CPU time and memory.")
    var sandboxPid: String?
    @Option("password-iterations", metavar: "N", help: "What the sandbox was started with, to say so in the output.")
    var passwordIterations: String?
    @Flag("markers", help: "The receiver answers each message with a received marker, as chatctl listen does.")
    var markers: Bool
    @Option("timeout", metavar: "S", help: "Give up after S seconds, connections included (default 120; more under valgrind).")
    var timeout: String?

    init() {}

    func run() throws(LoadError) -> LoadReport {
        var options = RouterRun.Options()
        options.markers = markers
        options.timeout = try BenchLoad.rate(timeout, $timeout, default: options.timeout)
        options.passwordIterations = try BenchLoad.iterations(passwordIterations, $passwordIterations)
        options.messages = try BenchLoad.number(messages, $messages, default: options.messages, in: 1...10_000_000)
        options.window = try BenchLoad.number(window, $window, default: options.window, in: 1...1_000_000)
        return try RouterRun(endpoints: try SandboxEndpoints(configFile: config), options: options, sandboxPid: try BenchLoad.processId(sandboxPid, $sandboxPid)).run()
    }
}

/// `BenchLoad scale CONFIG --users U`: many users at once.
struct ScaleCommand: LoadCommand {
    static let configuration = CommandConfiguration(
        name: "scale", abstract: "U users at once, one group of all and U private pairs, chatting at fixed rates.")

    @Argument("CONFIG", help: "The sandbox's config line, as a file.", completion: .file)
    var config: String
    @Option("users", short: "u", metavar: "U", help: "Users connected at once (default 125).")
    var users: String?
    @Option("seconds", metavar: "S", help: "How long they chat (default 10).")
    var seconds: String?
    @Option("private-rate", metavar: "R", help: "1:1 messages per user a second (default 1).")
    var privateRate: String?
    @Option("group-rate", metavar: "R", help: "Group messages per user a second (default 0.01).")
    var groupRate: String?
    @Option("sandbox-pid", metavar: "PID", help: "The sandbox's process, for its memory and CPU time.")
    var sandboxPid: String?
    @Option("password-iterations", metavar: "N", help: "What the sandbox was started with, to say so in the output.")
    var passwordIterations: String?

    init() {}

    func run() throws(LoadError) -> LoadReport {
        var options = ScaleRun.Options()
        options.users = try BenchLoad.number(users, $users, default: options.users, in: 2...100_000)
        options.seconds = try BenchLoad.rate(seconds, $seconds, default: options.seconds)
        options.privateRate = try BenchLoad.rate(privateRate, $privateRate, default: options.privateRate)
        options.groupRate = try BenchLoad.rate(groupRate, $groupRate, default: options.groupRate)
        options.passwordIterations = try BenchLoad.iterations(passwordIterations, $passwordIterations)
        return try ScaleRun(endpoints: try SandboxEndpoints(configFile: config), options: options, sandboxPid: try BenchLoad.processId(sandboxPid, $sandboxPid)).run()
    }
}
