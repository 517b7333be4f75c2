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
}

/// `BenchLoad router CONFIG`: one sender streams to one receiver.
struct RouterCommand: LoadCommand {
    static let configuration = CommandConfiguration(
        name: "router", abstract: "One sender streams 1:1 messages to one receiver; the router's rate.")

    @Option("messages", short: "n", metavar: "N", help: "Messages to stream.", range: 1...10_000_000)
    var messages = RouterRun.Options().messages
    @Option("window", metavar: "N", help: "Messages unacknowledged at most.", range: 1...1_000_000)
    var window = RouterRun.Options().window
    let sandbox = SandboxUnderLoad()
    @Flag("markers", help: "The receiver answers each message with a received marker, as chatctl listen does.")
    var markers: Bool
    @Option("timeout", metavar: "S", help: "Give up after S seconds, connections included; valgrind needs more.")
    var timeout = Amount(RouterRun.Options().timeout)

    init() {}

    func run() throws(LoadError) -> LoadReport {
        var options = RouterRun.Options()
        options.markers = markers
        options.timeout = timeout.value
        options.passwordIterations = sandbox.passwordIterations
        options.messages = messages
        options.window = window
        return try RouterRun(endpoints: try sandbox.endpoints(), options: options, sandboxPid: sandbox.processID).run()
    }
}

/// `BenchLoad scale CONFIG --users U`: many users at once.
struct ScaleCommand: LoadCommand {
    static let configuration = CommandConfiguration(
        name: "scale", abstract: "U users at once, one group of all and U private pairs, chatting at fixed rates.")

    @Option("users", short: "u", metavar: "U", help: "Users connected at once.", range: 2...100_000)
    var users = ScaleRun.Options().users
    @Option("seconds", metavar: "S", help: "How long they chat.")
    var seconds = Amount(ScaleRun.Options().seconds)
    @Option("private-rate", metavar: "R", help: "1:1 messages per user a second.")
    var privateRate = Amount(ScaleRun.Options().privateRate)
    @Option("group-rate", metavar: "R", help: "Group messages per user a second.")
    var groupRate = Amount(ScaleRun.Options().groupRate)
    let sandbox = SandboxUnderLoad()

    init() {}

    func run() throws(LoadError) -> LoadReport {
        var options = ScaleRun.Options()
        options.users = users
        options.seconds = seconds.value
        options.privateRate = privateRate.value
        options.groupRate = groupRate.value
        options.passwordIterations = sandbox.passwordIterations
        return try ScaleRun(endpoints: try sandbox.endpoints(), options: options, sandboxPid: sandbox.processID).run()
    }
}

/// What both runs take about the sandbox they load: where it is (CONFIG), and what the
/// report says of it. Held as a property, it declares these in that property's place.
struct SandboxUnderLoad {
    @Argument("CONFIG", help: "The sandbox's config line, as a file.", completion: .file)
    var config: String
    @Option("sandbox-pid", metavar: "PID", help: "The sandbox's process, for its CPU time and memory.", range: 1...Int(Int32.max))
    var pid: Int?
    @Option("password-iterations", metavar: "N", help: "What the sandbox was started with, to say so in the output.", range: 1...10_000_000)
    var passwordIterations: Int?

    func endpoints() throws(LoadError) -> SandboxEndpoints { try SandboxEndpoints(configFile: config) }

    var processID: Int32? { pid.map(Int32.init) }
}

/// A non-negative number (seconds, a rate), read once by the parser.
struct Amount: ExpressibleByArgument {
    let value: Double
    init?(argument: String) {
        guard let value = Double(argument), value >= 0, value.isFinite else { return nil }
        self.value = value
    }
    /// A default the driver declares.
    init(_ value: Double) {
        precondition(value >= 0 && value.isFinite, "a default amount that is not a number, 0 or more")
        self.value = value
    }
    static var expectedValue: String? { "a number, 0 or more" }
    var defaultValueDescription: String { value.defaultValueDescription }
}
