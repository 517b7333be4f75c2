#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SandboxNetwork
import XMPPTransport

/// Mode (b), scale: `users` users connected at once, all in one group dialog (joined as MUC
/// occupants) and each in two private pairs (user i writes to user i+1, a ring), each
/// sending 1:1 messages at `privateRate` and group messages at `groupRate` a second for
/// `seconds`. Measures deliveries routed a second, their latency (the send time is in each
/// body), and the sandbox's resident memory before and after the users connect.
package final class ScaleRun: LoadConnectionDelegate {
    package struct Options: Sendable {
        package var users = 125
        package var seconds: Double = 10
        /// 1:1 messages per user per second.
        package var privateRate: Double = 1
        /// Group messages per user per second (each reaches every occupant).
        package var groupRate: Double = 0.01
        /// At most this many streams between connecting and bound at once: the sandbox takes
        /// at most 32 unauthenticated connections from one address (docs/protocol.md §7).
        package var loginsInFlight = 24
        /// How long to wait for the last deliveries once sending stops.
        package var drainTimeout: Double = 20
        /// Connecting and joining give up after this many seconds.
        package var connectTimeout: Double = 120
        package var passwordIterations: Int?
        package init() {}
    }

    private enum Phase { case connecting, chatting, draining, done }

    private let endpoints: SandboxEndpoints
    private let options: Options
    private let probe: ProcessProbe?
    private let loop: LoadLoop
    private var tls: TLSClientContext?
    private var users: [LoadUser] = []
    private var connections: [LoadConnection] = []
    private var privateStanzas: [MessageStanza] = []
    private var groupStanza: MessageStanza?
    private var ids = ObjectIDGenerator()
    private var phase = Phase.connecting
    private var failure: String?
    private var nextToConnect = 0
    private var inFlight = 0
    private var readyCount = 0
    private var connectStarted: UInt64 = 0
    private var connectedAt: UInt64 = 0
    private var chatStarted: UInt64 = 0
    private var chatEnded: UInt64 = 0
    private var lastDelivery: UInt64 = 0
    private var privateSent: [Int] = []
    private var groupSent: [Int] = []
    private var stanzasBefore: [UInt32] = []
    private var acknowledged: [Int] = []
    private var ledger = DeliveryLedger()
    private var latencies = LatencySamples()
    private var groupLatencies = LatencySamples()
    /// From starting to connect to joined, per user.
    private var loginTimes = LatencySamples()
    private var connectStartedAt: [UInt64] = []
    private var privateLatencies = LatencySamples()
    private var batch: [UInt8] = []
    private var residentBefore: Int?
    private var residentConnected: Int?
    private var filesBefore: Int?
    private var filesConnected: Int?
    private var cpuAtChat: Double?
    private var cpuAtConnect: Double?

    package init(endpoints: SandboxEndpoints, options: Options, sandboxPid: Int32?) throws(LoadError) {
        self.endpoints = endpoints
        self.options = options
        probe = sandboxPid.map(ProcessProbe.init)
        loop = try LoadLoop()
    }

    private var count: Int { options.users }
    private var expectedDeliveries: Int { privateSent.reduce(0, +) + groupSent.reduce(0, +) * count }
    private var deliveredAll: Bool { ledger.delivered + ledger.duplicates >= expectedDeliveries }

    package func run() throws(LoadError) -> LoadReport {
        guard count >= 2 else { throw LoadError("a scale run needs at least 2 users") }
        let limit = raiseOpenFileLimit()
        guard limit > count + 64 else {
            throw LoadError("\(count) users need more than \(count + 64) open files; the limit is \(limit) (ulimit -n)")
        }
        let setupStart = MonotonicClock.nanoseconds
        let accounts = SandboxAccounts(endpoints: endpoints, tag: "scale\(count)-\(UInt32.random(in: 0 ... .max))")
        let (made, groupId) = try accounts.make(count: count, ring: true, group: true)
        guard let groupId else { throw LoadError("no group was made") }
        users = made
        let setupSeconds = Double(MonotonicClock.nanoseconds - setupStart) / 1e9
        let app = endpoints.credentials.applicationId
        let room = "\(app)_\(groupId)@muc.\(endpoints.chatDomain)"
        privateStanzas = users.map { user in
            MessageStanza(to: "\(users[(user.index + 1) % count].id)-\(app)@\(endpoints.chatDomain)", groupchat: false,
                          dialogId: user.privateDialogId ?? "")
        }
        groupStanza = MessageStanza(to: room, groupchat: true, dialogId: groupId)
        privateSent = Array(repeating: 0, count: count)
        groupSent = Array(repeating: 0, count: count)
        acknowledged = Array(repeating: 0, count: count)
        stanzasBefore = Array(repeating: 0, count: count)
        connectStartedAt = Array(repeating: 0, count: count)
        latencies = LatencySamples(expected: Int(Double(count) * options.seconds * (options.privateRate + options.groupRate * Double(count))))
        do { tls = try TLSClientContext(caFile: endpoints.caFile, host: endpoints.chatDomain) } catch { throw LoadError(error.description) }
        residentBefore = probe?.residentKiB
        filesBefore = probe?.openFiles
        cpuAtConnect = probe?.cpuSeconds
        connections = users.map { user in
            LoadConnection(index: user.index, userId: user.id,
                           steps: LoginSteps(domain: endpoints.chatDomain, node: "\(user.id)-\(app)", secret: user.token,
                                             roomOccupantJID: "\(room)/\(user.id)"),
                           loop: loop.loop, tls: tls!, delegate: self)
        }
        connectStarted = MonotonicClock.nanoseconds
        connectMore()
        let connectDeadline = connectStarted + UInt64(options.connectTimeout * 1e9)
        loop.every(0.01) { [unowned self] in tick(connectDeadline: connectDeadline) }
        loop.run()
        // Goodbyes written and handed over, then every bufferevent freed before the loop is.
        for connection in connections { connection.close() }
        loop.runOnce()
        connections = []
        if let failure { throw LoadError(failure) }
        return report(setupSeconds: setupSeconds)
    }

    private func connectMore() {
        while inFlight < options.loginsInFlight && nextToConnect < count {
            inFlight += 1
            connectStartedAt[nextToConnect] = MonotonicClock.nanoseconds
            connections[nextToConnect].connect(host: endpoints.chatHost, port: endpoints.chatPort)
            nextToConnect += 1
        }
    }

    private func tick(connectDeadline: UInt64) {
        let now = MonotonicClock.nanoseconds
        switch phase {
        case .connecting:
            if now > connectDeadline { fail("only \(readyCount) of \(count) users connected and joined within \(options.connectTimeout) s") }
        case .chatting:
            let elapsed = Double(now - chatStarted) / 1e9
            if elapsed >= options.seconds {
                phase = .draining
                chatEnded = now
                if deliveredAll { finish() }
                return
            }
            send(elapsed: elapsed, now: now)
        case .draining:
            if Double(now - chatEnded) / 1e9 > options.drainTimeout { finish() }
        case .done:
            break
        }
    }

    /// How many of a stream at `rate` a second are due after `elapsed` seconds, user `index`
    /// starting at its own offset so the users' sends are spread evenly in time.
    private func due(_ rate: Double, elapsed: Double, index: Int) -> Int {
        guard rate > 0 else { return 0 }
        let position = elapsed * rate - Double(index) / Double(count)
        return position < 0 ? 0 : Int(position) + 1
    }

    private func send(elapsed: Double, now: UInt64) {
        guard let groupStanza else { return }
        let seconds = Int(Date().timeIntervalSince1970)
        for index in 0..<count {
            let privateDue = due(options.privateRate, elapsed: elapsed, index: index) - privateSent[index]
            let groupDue = due(options.groupRate, elapsed: elapsed, index: index) - groupSent[index]
            guard privateDue > 0 || groupDue > 0 else { continue }
            batch.removeAll(keepingCapacity: true)
            for _ in 0..<max(0, privateDue) {
                privateSent[index] += 1
                let message = LoadMessage(kind: .privateChat, sender: index, sequence: privateSent[index], sentAt: now)
                privateStanzas[index].render(id: ids.next(unixTime: UInt32(truncatingIfNeeded: seconds)), body: message.body, dateSent: seconds, into: &batch)
            }
            for _ in 0..<max(0, groupDue) {
                groupSent[index] += 1
                let message = LoadMessage(kind: .group, sender: index, sequence: groupSent[index], sentAt: now)
                groupStanza.render(id: ids.next(unixTime: UInt32(truncatingIfNeeded: seconds)), body: message.body, dateSent: seconds, into: &batch)
            }
            batch.append(contentsOf: "<r xmlns='urn:xmpp:sm:3'/>".utf8)
            connections[index].write(batch, stanzas: max(0, privateDue) + max(0, groupDue))
        }
    }

    private func finish() {
        guard phase != .done else { return }
        phase = .done
        loop.stop()
    }

    private func fail(_ reason: String) {
        failure = failure ?? reason
        finish()
    }

    // MARK: LoadConnectionDelegate

    func connectionReady(_ connection: LoadConnection) {
        readyCount += 1
        inFlight -= 1
        loginTimes.record(nanoseconds: MonotonicClock.nanoseconds - connectStartedAt[connection.index])
        stanzasBefore[connection.index] = connection.outbound
        connectMore()
        guard readyCount == count else { return }
        connectedAt = MonotonicClock.nanoseconds
        residentConnected = probe?.residentKiB
        filesConnected = probe?.openFiles
        cpuAtChat = probe?.cpuSeconds
        for (index, connection) in connections.enumerated() { stanzasBefore[index] = connection.outbound }
        phase = .chatting
        chatStarted = MonotonicClock.nanoseconds
    }

    func connection(_ connection: LoadConnection, received message: LoadMessage, at now: UInt64) {
        guard phase != .connecting, message.sender < count else { return }
        let receiver = connection.index
        let kind = message.kind == .group ? 1 : 0
        if message.kind == .privateChat && message.sender != (receiver + count - 1) % count { return fail("a 1:1 message reached the wrong user") }
        ledger.record(stream: (receiver * count + message.sender) * 2 + kind, sequence: message.sequence)
        let latency = now &- message.sentAt
        latencies.record(nanoseconds: latency)
        if message.kind == .group { groupLatencies.record(nanoseconds: latency) } else { privateLatencies.record(nanoseconds: latency) }
        lastDelivery = now
        if phase == .draining && deliveredAll { finish() }
    }

    func connection(_ connection: LoadConnection, acknowledged h: UInt32) {
        acknowledged[connection.index] = max(acknowledged[connection.index], Int(h &- stanzasBefore[connection.index]))
    }

    func connection(_ connection: LoadConnection, failed reason: String) {
        fail("user \(connection.index) of \(count): \(reason)")
    }

    // MARK: report

    private func report(setupSeconds: Double) -> LoadReport {
        let sentPrivate = privateSent.reduce(0, +)
        let sentGroup = groupSent.reduce(0, +)
        let expected = expectedDeliveries
        let window = Double((lastDelivery > chatStarted ? lastDelivery : chatStarted + 1) - chatStarted) / 1e9
        let routed = Double(ledger.delivered) / max(window, options.seconds)
        let all = latencies.summary
        let unacknowledged = privateSent.indices.reduce(0) { $0 + max(0, privateSent[$1] + groupSent[$1] - acknowledged[$1]) }
        var detail: [String: LoadReport.Value] = [
            "users": .int(count),
            "private_pairs": .int(count),
            "group_occupants": .int(count),
            "seconds": .double(options.seconds),
            "private_rate_per_user": .double(options.privateRate),
            "group_rate_per_user": .double(options.groupRate),
            "messages_sent": .int(sentPrivate + sentGroup),
            "private_sent": .int(sentPrivate),
            "group_sent": .int(sentGroup),
            "deliveries_expected": .int(expected),
            "deliveries": .int(ledger.delivered),
            "duplicates": .int(ledger.duplicates),
            "out_of_order": .int(ledger.gaps),
            "unacknowledged": .int(unacknowledged),
            "offered_deliveries_per_s": .double(Double(expected) / options.seconds),
            "latency_p50_ms": .double(all.p50Ms),
            "latency_p99_ms": .double(all.p99Ms),
            "latency_max_ms": .double(all.maxMs),
            "private_latency_p99_ms": .double(privateLatencies.summary.p99Ms),
            "group_latency_p99_ms": .double(groupLatencies.summary.p99Ms),
            "setup_rest_s": .double(setupSeconds),
            "connect_and_join_s": .double(Double(connectedAt - connectStarted) / 1e9),
            "login_and_join_p50_ms": .double(loginTimes.summary.p50Ms),
            "login_and_join_max_ms": .double(loginTimes.summary.maxMs),
        ]
        if let before = residentBefore, let after = residentConnected {
            detail["sandbox_rss_before_kb"] = .int(before)
            detail["sandbox_rss_connected_kb"] = .int(after)
            detail["rss_per_connection_kb"] = .double(Double(after - before) / Double(count))
        }
        if let rss = probe?.residentKiB { detail["sandbox_rss_end_kb"] = .int(rss) }
        if let peak = probe?.peakResidentKiB { detail["sandbox_rss_peak_kb"] = .int(peak) }
        if let before = filesBefore, let after = filesConnected {
            detail["sandbox_open_files_before"] = .int(before)
            detail["sandbox_open_files_connected"] = .int(after)
        }
        if let start = cpuAtConnect, let chat = cpuAtChat, let end = probe?.cpuSeconds {
            detail["sandbox_cpu_connect_s"] = .double(chat - start)
            detail["sandbox_cpu_chat_s"] = .double(end - chat)
            detail["sandbox_cpu_chat_share"] = .double((end - chat) / max(window, options.seconds))
        }
        if let iterations = options.passwordIterations {
            detail["password_iterations"] = .int(iterations)
            detail["note"] = .string("users signed up with --password-iterations \(iterations): PBKDF2 is not what this measures")
        }
        let ok = ledger.delivered == expected && ledger.duplicates == 0 && ledger.gaps == 0
        return LoadReport(rows: [LoadReport.Row(
            key: "sandbox_scale_\(count)",
            label: "chatctl-sandbox, \(count) users at once: one group of \(count), \(count) private pairs; deliveries routed a second",
            value: routed.rounded(), unit: "msg/s", target: "report", ok: ok, baseline: nil, detail: detail)])
    }
}

@available(*, unavailable) extension ScaleRun: Sendable {}
