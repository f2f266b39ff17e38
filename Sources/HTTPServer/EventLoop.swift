import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the event loops of one server share: limits, handlers and counts.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: @Sendable (HTTPRequest) -> HTTPReply
    let refused: @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse
    let admission: ConnectionAdmission
    let inFlight: InFlightRequests
    let listener: Int32
    /// What every connection's state machine enforces.
    let connectionLimits: ConnectionStateMachine.Limits

    init(
        configuration: HTTPServerConfiguration, listener: Int32, admission: ConnectionAdmission, inFlight: InFlightRequests,
        responder: @escaping @Sendable (HTTPRequest) -> HTTPReply, refused: @escaping @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.listener = listener
        self.admission = admission
        self.inFlight = inFlight
        self.responder = responder
        self.refused = refused
        connectionLimits = ConnectionStateMachine.Limits(configuration)
    }
}

/// One thread that accepts connections and does their I/O: it reports each connection's events
/// to its ``ConnectionStateMachine`` and performs the actions it returns (read, write, shut the
/// writing half, close), answers a request in place (fast handler, refusals) or hands it to the
/// async handler and writes its reply when it comes back, and ticks the machines' timers.
///
/// The replies made while handling the events of one wait are sent together after the last of
/// them. A client waiting on several connections then hears them in one burst instead of being
/// woken once a reply: on loopback the sender pays for the receiver's wake-up, so fewer sends
/// leave the server more of its CPU for requests.
///
/// Every loop watches the one listening socket, and the loop that accepts a connection gives it to
/// whichever loop of the server has the fewest open (itself on a tie): clients that open many
/// keep-alive connections at once (a proxy's pool, a load generator) would otherwise all land on
/// the loop that woke first, leaving the other cores idle.
///
/// Everything but ``post(_:)`` runs on the loop's own thread; a connection never moves after the
/// loop that serves it has taken it.
final class EventLoop: @unchecked Sendable {
    private enum Message {
        case completed(slot: Int, generation: UInt32, response: HTTPResponse)
        /// A connection another loop accepted for this one (already admitted and counted).
        case adopt(fd: Int32, peer: PeerAddress)
        case stopAccepting
        case stop
    }

    private struct Mailbox {
        var messages: [Message] = []
        /// Set when the loop has ended: it takes no more messages.
        var closed = false
    }

    private static let listenerToken: UInt64 = .max - 1
    private static let tick: Int32 = 100
    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private let core: ServerCore
    private let poller: Poller
    private var connections: [Connection?] = []
    private var freeSlots: [Int] = []
    private var nextGeneration: UInt32 = 0
    private var encoder = ResponseEncoder()
    private var now: UInt64
    private var lastSweep: UInt64
    private var listening = false
    private var running = true
    private var spareDescriptor: Int32
    private let mailbox = Mutex(Mailbox())
    private let wakePending = Atomic<Bool>(false)
    /// Connections this loop serves or has been given and not yet taken; read by the other loops.
    private let openConnections = Atomic<Int>(0)
    /// Every loop of the server, this one included; set by ``join(_:)`` before any loop runs.
    private var loops: [EventLoop] = []
    /// While the events of one wait are handled, replies are encoded but not sent: they go out
    /// together after the last event (``flushReplies()``).
    private var batching = false
    private var unsent: [Connection] = []
    /// The most replies kept back at once, so the first of a long run of events waits for no more
    /// than this many others.
    private static let burst = 64
    /// Signalled when the loop has closed its connections and ended.
    let exited = ExitSignal()

    init?(core: ServerCore) {
        guard let poller = Poller() else { return nil }
        self.core = core
        self.poller = poller
        now = Socket.monotonicMilliseconds()
        lastSweep = now
        spareDescriptor = Socket.spareDescriptor()
        listening = poller.addListener(core.listener, token: Self.listenerToken)
        if !listening { return nil }
    }

    /// Tells the loop which loops share its listener (itself among them); call before ``run()``.
    func join(_ loops: [EventLoop]) { self.loops = loops }

    /// Runs until a `.stop` message; call on the loop's own thread.
    func run() {
        while running {
            let count = poller.wait(milliseconds: Self.tick)
            now = Socket.monotonicMilliseconds()
            batching = true
            for index in 0..<count {
                handle(poller.event(index))
                if unsent.count >= Self.burst { flushReplies() }
            }
            batching = false
            flushReplies()
            if now &- lastSweep >= UInt64(Self.tick) {
                lastSweep = now
                sweep()
            }
        }
        for case let connection? in connections { close(connection) }
        // Connections given to this loop after its last round are closed unserved, like its own.
        let late = mailbox.withLock { mailbox in
            mailbox.closed = true
            return mailbox.messages
        }
        for case .adopt(let fd, let peer) in late { closeUnserved(fd, peer) }
        loops = []  // the loops hold each other until they end
        if spareDescriptor >= 0 { SystemCall.close(spareDescriptor) }
        exited.signal()
    }

    /// Answers the request in flight on `slot` (from the handler's task).
    func complete(slot: Int, generation: UInt32, response: HTTPResponse) {
        post(.completed(slot: slot, generation: generation, response: response))
    }

    /// Stops taking new connections (the listening socket stays open until the server closes it).
    func stopAccepting() { post(.stopAccepting) }

    /// Closes every connection and ends ``run()``.
    func stop() { post(.stop) }

    /// Returns whether the loop took the message (`false` once it has ended).
    @discardableResult
    private func post(_ message: Message) -> Bool {
        let taken = mailbox.withLock { mailbox in
            if !mailbox.closed { mailbox.messages.append(message) }
            return !mailbox.closed
        }
        if taken, !wakePending.exchange(true, ordering: .acquiringAndReleasing) { poller.wake() }
        return taken
    }

    // MARK: events

    private func handle(_ event: PollEvent) {
        switch event.token {
        case Poller.wakeToken:
            poller.consumeWake()
            wakePending.store(false, ordering: .sequentiallyConsistent)
            var messages: [Message] = []
            mailbox.withLock { swap(&messages, &$0.messages) }
            for message in messages { process(message) }
        case Self.listenerToken:
            if listening { acceptConnections() }
        default:
            let slot = Int(event.token >> 32)
            guard slot < connections.count, let connection = connections[slot],
                connection.generation == UInt32(truncatingIfNeeded: event.token)
            else { return }
            if event.readable || event.hangUp { connection.readable = true }
            if event.hangUp { connection.hangUpSeen = true }
            advance(connection)
        }
    }

    private func process(_ message: Message) {
        switch message {
        case .completed(let slot, let generation, let response):
            guard slot < connections.count, let connection = connections[slot], connection.generation == generation,
                connection.machine.state == .handling
            else { return }
            perform(connection, respond(connection, response, stopping: core.inFlight.isStopping))
        case .adopt(let fd, let peer):
            serve(fd, peer)
        case .stopAccepting:
            if listening {
                poller.remove(core.listener)
                listening = false
            }
        case .stop:
            running = false
        }
    }

    private func acceptConnections() {
        for _ in 0..<64 {
            switch Socket.accept(core.listener) {
            case .none:
                return
            case .retry:
                continue
            case .outOfDescriptors:
                shedOneConnection()
                return
            case .connection(let fd, let peer):
                guard core.admission.admit(peer) else {
                    Socket.resetAndClose(fd)
                    continue
                }
                hand(fd, peer)
            }
        }
    }

    /// Gives an accepted and admitted connection to the loop with the fewest open connections, or
    /// serves it here (on a tie, or when that loop has just ended).
    private func hand(_ fd: Int32, _ peer: PeerAddress) {
        let target = leastLoaded()
        target.openConnections.add(1, ordering: .relaxed)
        if target === self { return serve(fd, peer) }
        if target.post(.adopt(fd: fd, peer: peer)) { return }
        target.openConnections.subtract(1, ordering: .relaxed)
        openConnections.add(1, ordering: .relaxed)
        serve(fd, peer)
    }

    /// The loop with the fewest open connections, this one when none has fewer.
    private func leastLoaded() -> EventLoop {
        var best = self, fewest = openConnections.load(ordering: .relaxed)
        for loop in loops where loop !== self {
            let open = loop.openConnections.load(ordering: .relaxed)
            if open < fewest { (best, fewest) = (loop, open) }
        }
        return best
    }

    /// Starts serving an accepted, admitted and counted connection on this loop.
    private func serve(_ fd: Int32, _ peer: PeerAddress) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = connections.count
            connections.append(nil)
        }
        nextGeneration &+= 1
        if nextGeneration == 0 { nextGeneration = 1 }
        let connection = Connection(
            fd: fd, slot: slot, generation: nextGeneration, peer: peer, limits: core.connectionLimits, now: now)
        connections[slot] = connection
        if !poller.addConnection(fd, token: UInt64(slot) << 32 | UInt64(nextGeneration)) { close(connection) }
    }

    /// Closes a connection given to this loop that it never started serving.
    private func closeUnserved(_ fd: Int32, _ peer: PeerAddress) {
        SystemCall.close(fd)
        core.admission.release(peer)
        openConnections.subtract(1, ordering: .relaxed)
    }

    /// Out of descriptors: take one waiting connection with the spare descriptor's place and
    /// reset it, so clients are refused at once instead of waiting in the backlog.
    private func shedOneConnection() {
        guard spareDescriptor >= 0 else { return }
        SystemCall.close(spareDescriptor)
        if case .connection(let fd, _) = Socket.accept(core.listener) { Socket.resetAndClose(fd) }
        spareDescriptor = Socket.spareDescriptor()
    }

    // MARK: performing the state machine's actions

    /// Moves `connection` on as far as it can go without waiting.
    private func advance(_ connection: Connection) {
        perform(connection, connection.machine.received(connection.buffered, now: now))
    }

    /// Performs `first` and every action it leads to, until one waits for the next event.
    private func perform(_ connection: Connection, _ first: ConnectionStateMachine.Action) {
        var action = first
        while true {
            switch action {
            case .wait:
                return
            case .read(let limit):
                guard connection.readable else { return }
                switch connection.receive(limit: limit) {
                case -2:
                    return close(connection)
                case -1:
                    return
                case 0:
                    action = connection.machine.inputEnded(connection.buffered, now: now)
                default:
                    action = connection.machine.received(connection.buffered, now: now)
                }
            case .consume(let count):
                connection.consume(count)
                action = connection.machine.received(connection.buffered, now: now)
            case .dispatch:
                action = dispatch(connection)
            case .refuse(let refusal):
                let request = connection.machine.request(from: connection.buffered, remoteAddress: connection.remoteAddress)
                action = respond(connection, core.refused(request, refusal), stopping: false)
            case .sendContinue:
                connection.output.append(contentsOf: Self.continueLine)
                action = .write
            case .write:
                if batching {
                    if !connection.awaitingFlush {
                        connection.awaitingFlush = true
                        unsent.append(connection)
                    }
                    return
                }
                switch connection.flush() {
                case .done:
                    if connection.registered {
                        core.inFlight.leave()
                        connection.registered = false
                    }
                    action = connection.machine.writeCompleted(connection.buffered, now: now)
                case .blocked:
                    return
                case .failed:
                    return close(connection)
                }
            case .shutdownWrite:
                Socket.shutdownWrite(connection.fd)
                action = connection.machine.received(connection.buffered, now: now)
            case .discardInput:
                guard connection.readable else { return }
                if connection.discardInput() { return }
                action = connection.machine.inputEnded(connection.buffered, now: now)
            case .close:
                return close(connection)
            }
        }
    }

    /// Hands a complete request to the responder: its reply is sent at once, or its pending work
    /// runs in a task (a `503` once the server is stopping).
    private func dispatch(_ connection: Connection) -> ConnectionStateMachine.Action {
        let request = connection.machine.request(from: connection.buffered, remoteAddress: connection.remoteAddress)
        connection.consume(connection.machine.requestLength)
        let stopping = core.inFlight.isStopping
        let work: @Sendable () async -> HTTPResponse
        switch core.responder(request) {
        case .ready(let response):
            return respond(connection, response, stopping: stopping)
        case .pending(let pending):
            work = pending
        }
        guard core.inFlight.enter() else {
            return respond(connection, HTTPResponse(status: 503), stopping: true)
        }
        connection.registered = true
        let slot = connection.slot, generation = connection.generation
        Task {
            let response = await work()
            self.complete(slot: slot, generation: generation, response: response)
        }
        return connection.machine.handlerStarted()
    }

    /// Encodes `response` as the machine frames it.
    private func respond(_ connection: Connection, _ response: HTTPResponse, stopping: Bool) -> ConnectionStateMachine.Action {
        let framing = connection.machine.replyReady(stopping: stopping, now: now)
        let closes = encoder.encode(response, framing, into: &connection.output)
        return connection.machine.replyEncoded(closes: closes)
    }

    /// Sends the replies encoded while handling one wait's events, and moves their connections on.
    private func flushReplies() {
        guard !unsent.isEmpty else { return }
        let pending = unsent
        unsent.removeAll(keepingCapacity: true)
        let wasBatching = batching
        batching = false
        defer { batching = wasBatching }
        for connection in pending {
            connection.awaitingFlush = false
            guard connections[connection.slot] === connection else { continue }
            advance(connection)
        }
    }

    private func close(_ connection: Connection) {
        guard connections[connection.slot] === connection else { return }
        if connection.registered {
            core.inFlight.leave()
            connection.registered = false
        }
        SystemCall.close(connection.fd)
        core.admission.release(connection.peer)
        openConnections.subtract(1, ordering: .relaxed)
        connections[connection.slot] = nil
        freeSlots.append(connection.slot)
    }

    /// Ticks every connection's timers; runs every tick.
    private func sweep() {
        for case let connection? in connections {
            let action = connection.machine.tick(connection.buffered, now: now)
            if case .wait = action { continue }
            perform(connection, action)
        }
    }
}

/// The C library's `close`, named apart from the loop's own `close(_:)`.
private enum SystemCall {
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}

/// A one-shot signal an async caller can wait for.
final class ExitSignal: Sendable {
    private let state = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func signal() {
        let waiters = state.withLock { state in
            state.done = true
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}
