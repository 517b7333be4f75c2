#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SandboxNetwork
import XMPPTransport

/// Mode (a), the raw router rate: one sender streams `messages` 1:1 messages, chatctl's
/// stanza with `save_to_history` 1, through the sandbox to one receiver, keeping at most
/// `window` unacknowledged and asking for an ack (`<r/>`) after every `ackEvery`, as
/// `send --lines` pipelines them. Timed from the first write until the receiver has them
/// all; the receiver checks each arrives once and in order and times each one.
package final class RouterRun: LoadConnectionDelegate {
    package struct Options: Sendable {
        package var messages = 100_000
        package var window = 1000
        package var ackEvery = 50
        /// The whole run, connections included, gives up after this many seconds.
        package var timeout: Double = 120
        package var passwordIterations: Int?
        /// The receiver answers each message with a chat marker `received`, as `chatctl listen`
        /// does: the sandbox's cost of a message and its marker.
        package var markers = false
        package init() {}
    }

    private let endpoints: SandboxEndpoints
    private let options: Options
    private let probe: ProcessProbe?
    private let loop: LoadLoop
    private var sender: LoadConnection?
    private var receiver: LoadConnection?
    private var stanza: MessageStanza?
    private var ids = ObjectIDGenerator()
    private var readyCount = 0
    private var failure: String?
    private var sent = 0
    /// Stanzas the sender had written before the first message (its presence).
    private var stanzasBefore: UInt32 = 0
    private var acknowledged = 0
    private var ledger = DeliveryLedger()
    private var latencies: LatencySamples
    private var started: UInt64 = 0
    private var allReceived: UInt64 = 0
    private var allAcknowledged: UInt64 = 0
    private var cpuAtStart: Double?
    private var batch: [UInt8] = []

    package init(endpoints: SandboxEndpoints, options: Options, sandboxPid: Int32?) throws(LoadError) {
        self.endpoints = endpoints
        self.options = options
        probe = sandboxPid.map(ProcessProbe.init)
        loop = try LoadLoop()
        latencies = LatencySamples(expected: options.messages)
    }

    package func run() throws(LoadError) -> LoadReport {
        let setupStart = MonotonicClock.nanoseconds
        let accounts = SandboxAccounts(endpoints: endpoints, tag: "router-\(UInt32.random(in: 0 ... .max))")
        let (users, _) = try accounts.make(count: 2, ring: true, group: false)
        guard let dialogId = users[0].privateDialogId else { throw LoadError("no private dialog was made") }
        let setupSeconds = Double(MonotonicClock.nanoseconds - setupStart) / 1e9
        stanza = MessageStanza(to: "\(users[1].id)-\(endpoints.credentials.applicationId)@\(endpoints.chatDomain)",
                               groupchat: false, dialogId: dialogId)
        let tls: TLSClientContext
        do { tls = try TLSClientContext(caFile: endpoints.caFile, host: endpoints.chatDomain) } catch { throw LoadError(error.description) }
        var connections: [LoadConnection] = []
        for user in users {
            let steps = LoginSteps(domain: endpoints.chatDomain, node: "\(user.id)-\(endpoints.credentials.applicationId)",
                                   secret: user.token, roomOccupantJID: nil)
            let connection = LoadConnection(index: user.index, userId: user.id, steps: steps, loop: loop.loop, tls: tls, delegate: self)
            connections.append(connection)
            connection.connect(host: endpoints.chatHost, port: endpoints.chatPort)
        }
        sender = connections[0]
        receiver = connections[1]
        if options.markers {
            connections[1].markers = (to: "\(users[0].id)-\(endpoints.credentials.applicationId)@\(endpoints.chatDomain)", dialogId: dialogId)
        }
        let deadline = MonotonicClock.nanoseconds + UInt64(options.timeout * 1e9)
        loop.every(0.25) { [unowned self] in
            if MonotonicClock.nanoseconds > deadline {
                failure = failure ?? "timed out after \(options.timeout) s: \(ledger.delivered) of \(options.messages) received, \(acknowledged) acknowledged"
                loop.stop()
            }
        }
        loop.run()
        // Goodbyes written and handed over, then every bufferevent freed before the loop is.
        for connection in connections { connection.close() }
        loop.runOnce()
        connections = []
        sender = nil
        receiver = nil
        if let failure { throw LoadError(failure) }
        let cpu = cpuAtStart.flatMap { start in probe?.cpuSeconds.map { $0 - start } }
        return report(setupSeconds: setupSeconds, sandboxCPU: cpu)
    }

    private func report(setupSeconds: Double, sandboxCPU: Double?) -> LoadReport {
        let seconds = Double(allReceived - started) / 1e9
        let rate = Double(options.messages) / seconds
        let summary = latencies.summary
        var detail: [String: LoadReport.Value] = [
            "messages": .int(options.messages),
            "seconds": .double(seconds),
            "delivered": .int(ledger.delivered),
            "duplicates": .int(ledger.duplicates),
            "out_of_order": .int(ledger.gaps),
            "acknowledged": .int(acknowledged),
            "acknowledged_after_s": .double(Double(allAcknowledged - started) / 1e9),
            "window": .int(options.window),
            "ack_every": .int(options.ackEvery),
            "latency_p50_ms": .double(summary.p50Ms),
            "latency_p90_ms": .double(summary.p90Ms),
            "latency_p99_ms": .double(summary.p99Ms),
            "latency_max_ms": .double(summary.maxMs),
            "setup_s": .double(setupSeconds),
            "markers": .bool(options.markers),
        ]
        if let sandboxCPU {
            detail["sandbox_cpu_s"] = .double(sandboxCPU)
            detail["sandbox_cpu_us_per_message"] = .double(sandboxCPU / Double(options.messages) * 1e6)
        }
        if let rss = probe?.residentKiB { detail["sandbox_rss_kb"] = .int(rss) }
        if let iterations = options.passwordIterations {
            detail["password_iterations"] = .int(iterations)
            detail["note"] = .string("users signed up with --password-iterations \(iterations): PBKDF2 is not what this measures")
        }
        // The sandbox's cost of a message (parse, store, route, ack) in tens of microseconds.
        let whole = ledger.delivered == options.messages && ledger.duplicates == 0 && ledger.gaps == 0
        let cheap = sandboxCPU.map { $0 / Double(options.messages) * 1e6 < 100 } ?? true
        return LoadReport(rows: [LoadReport.Row(
            key: options.markers ? "sandbox_router_markers" : "sandbox_router",
            label: "chatctl-sandbox router, \(LoadReport.grouped(options.messages)) 1:1 messages stored and routed, one sender to one receiver" + (options.markers ? ", each answered with a received marker" : ""),
            value: rate.rounded(), unit: "msg/s", target: "every message once, in order; < 100 µs of sandbox CPU each", ok: whole && cheap,
            baseline: nil, detail: detail)])
    }

    // MARK: sending

    private func fill() {
        guard let sender, let stanza, failure == nil else { return }
        let now = MonotonicClock.nanoseconds
        let seconds = Int(Date().timeIntervalSince1970)
        while sent < options.messages && sent - acknowledged < options.window {
            batch.removeAll(keepingCapacity: true)
            let count = min(options.ackEvery, options.messages - sent, options.window - (sent - acknowledged))
            for _ in 0..<count {
                sent += 1
                let message = LoadMessage(kind: .privateChat, sender: 0, sequence: sent, sentAt: now)
                stanza.render(id: ids.next(unixTime: UInt32(truncatingIfNeeded: seconds)), body: message.body, dateSent: seconds, into: &batch)
            }
            batch.append(contentsOf: "<r xmlns='urn:xmpp:sm:3'/>".utf8)
            sender.write(batch, stanzas: count)
        }
    }

    // MARK: LoadConnectionDelegate

    func connectionReady(_ connection: LoadConnection) {
        readyCount += 1
        guard readyCount == 2, let sender else { return }
        stanzasBefore = sender.outbound
        cpuAtStart = probe?.cpuSeconds
        started = MonotonicClock.nanoseconds
        fill()
    }

    func connection(_ connection: LoadConnection, received message: LoadMessage, at now: UInt64) {
        guard connection === receiver, message.kind == .privateChat else { return }
        ledger.record(stream: message.sender, sequence: message.sequence)
        latencies.record(nanoseconds: now &- message.sentAt)
        if ledger.delivered == options.messages {
            allReceived = now
            finishIfDone()
        }
    }

    func connection(_ connection: LoadConnection, acknowledged h: UInt32) {
        guard connection === sender else { return }
        acknowledged = max(acknowledged, Int(h &- stanzasBefore))
        if acknowledged >= options.messages && allAcknowledged == 0 {
            allAcknowledged = MonotonicClock.nanoseconds
            finishIfDone()
        }
        fill()
    }

    func connection(_ connection: LoadConnection, failed reason: String) {
        failure = failure ?? "user \(connection.index): \(reason)"
        loop.stop()
    }

    private func finishIfDone() {
        if allReceived != 0 && allAcknowledged != 0 { loop.stop() }
    }
}

@available(*, unavailable) extension RouterRun: Sendable {}
