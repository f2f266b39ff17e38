/// The rules of one HTTP/1.1 connection, apart from its socket: how a request is framed and
/// held to its limits, when it is handed on, when the connection is kept or closed after a reply,
/// pipelining, `100 Continue`, half-close, lingering and every timeout.
///
/// A value stored in its ``Connection``. The event loop reports each event (bytes buffered, end
/// of input, a reply ready, a reply sent, a timer tick) with one `mutating func`, and performs the
/// ``Action`` it returns; the machine does no I/O and reads no clock. The bytes read and not yet
/// consumed are passed in with the events that look at them; the machine only ever asks for them
/// to be consumed (``Action/consume(_:)``, ``requestLength`` after ``Action/dispatch``).
struct ConnectionStateMachine {
    /// The limits and timeouts the machine enforces (from ``HTTPServerConfiguration``).
    struct Limits {
        var head: HeadLimits
        /// The most bytes a head can fill before the scanner refuses it.
        var headBufferLimit: Int
        var maxBodySize: Int
        var maxQueryParameters: Int
        /// Milliseconds from a request's first byte (a new connection's accept) to the end of its head.
        var headerTimeout: UInt64
        /// Milliseconds a kept connection may stay idle; also a body's and a reply's time.
        var idleTimeout: UInt64
        /// Milliseconds a closing connection keeps reading what the client still sends.
        var lingerTimeout: UInt64

        init(_ configuration: HTTPServerConfiguration) {
            head = HeadLimits(
                requestLine: configuration.maxRequestLineLength, headerBytes: configuration.maxHeaderBytes,
                headerCount: configuration.maxHeaderCount)
            headBufferLimit = configuration.maxRequestLineLength + configuration.maxHeaderBytes + 16
            maxBodySize = configuration.maxBodySize
            maxQueryParameters = configuration.maxQueryParameters
            headerTimeout = UInt64(max(1, configuration.headerTimeout)) * 1000
            idleTimeout = UInt64(max(1, configuration.connectionTimeout)) * 1000
            lingerTimeout = 2000
        }
    }

    /// Where the connection is in its request/response cycle.
    enum State: Equatable {
        /// Reading a request head (or idle between requests, or new).
        case head
        /// The head is parsed; reading its `Content-Length` bytes of body.
        case body
        /// Sending `100 Continue`; then reading the body.
        case continuing
        /// The complete request was handed to the loop, which answers it in place or starts the
        /// async handler (``replyReady(stopping:now:)`` or ``handlerStarted()``).
        case dispatching
        /// The async handler has the request; nothing is read meanwhile.
        case handling
        /// The request is refused; the loop builds the refusal's reply.
        case refusing
        /// Sending a reply.
        case writing
        /// The last reply is sent and the writing half is shut; reading whatever the client still
        /// sends until it closes, so its unread upload cannot turn into a reset that eats the reply.
        case lingering
        /// Done: the loop closes the socket.
        case closed
    }

    /// What the loop does next.
    enum Action: Equatable {
        /// Nothing until the next event.
        case wait
        /// Read what the socket has, keeping at most `limit` bytes buffered, and report it with
        /// ``received(_:now:)`` or ``inputEnded(_:now:)``; when nothing is there, wait for it.
        case read(limit: Int)
        /// Drop the first `count` buffered bytes (blank lines before a request), then report
        /// ``received(_:now:)``.
        case consume(Int)
        /// The request is complete: build it (``request(from:remoteAddress:)``), consume
        /// ``requestLength`` bytes, and hand it to the responder.
        case dispatch
        /// Build the reply to `refusal` (from ``request(from:remoteAddress:)``, no body) and report
        /// it with ``replyReady(stopping:now:)``.
        case refuse(HTTPRefusal)
        /// Append `100 Continue` to the output, then write.
        case sendContinue
        /// Send the output; report the end with ``writeCompleted(_:now:)``.
        case write
        /// Shut the writing half, then report ``received(_:now:)``.
        case shutdownWrite
        /// Read and drop what the client sends; report its end with ``inputEnded(_:now:)``.
        case discardInput
        /// Close the connection.
        case close
    }

    private(set) var state = State.head
    let limits: Limits

    /// When the current state's clock started (milliseconds, monotonic): in ``State/head``, the
    /// first byte of the request or the accept of a new connection, or the end of the last reply
    /// while ``idle``; in ``State/body`` and ``State/continuing``, the end of the head; in
    /// ``State/writing`` and ``State/lingering``, their start.
    private(set) var stateStart: UInt64
    /// In ``State/head`` between two requests with nothing of the next one read yet: the idle
    /// timeout applies rather than the header timeout.
    private(set) var idle = false
    /// At least one reply went out on this connection (it is no longer new).
    private(set) var hasServed = false
    /// The client closed its writing half (or the socket failed).
    private(set) var peerClosed = false

    private var scanner = HeadScanner()
    private(set) var fields: [FieldRange] = []
    private(set) var head = RequestHead()
    private(set) var headLength = 0
    /// The decoded path and query of the request being read.
    private(set) var target: RequestTarget?
    /// The connection stays open after the current request's reply (as its head asked).
    private(set) var keepAlive = true
    private(set) var isHeadRequest = false
    /// The reply being written closes the connection after it.
    private(set) var closeAfterWrite = false

    init(limits: Limits, now: UInt64) {
        self.limits = limits
        stateStart = now
    }

    /// The bytes of the dispatched request, head and body: what the loop consumes after building it.
    var requestLength: Int { headLength + head.contentLength }

    // MARK: events

    /// Bytes may have been buffered (`bytes` is all that is buffered) or the state changed: says
    /// what to do next. The loop's entry point for every readiness event.
    mutating func received(_ bytes: UnsafeBufferPointer<UInt8>, now: UInt64) -> Action {
        switch state {
        case .head:
            if !bytes.isEmpty {
                if idle {
                    idle = false
                    stateStart = now
                }
                if let action = readHead(bytes, now: now) { return action }
            }
            if peerClosed { return close() }
            return .read(limit: limits.headBufferLimit)
        case .body:
            if bytes.count >= requestLength { return dispatch(bytes) }
            if peerClosed { return close() }
            return .read(limit: requestLength)
        case .dispatching, .handling, .refusing:
            return .wait
        case .continuing, .writing:
            return .write
        case .lingering:
            return .discardInput
        case .closed:
            return .close
        }
    }

    /// The client closed its writing half: a request already buffered is still served, then the
    /// connection closes.
    mutating func inputEnded(_ bytes: UnsafeBufferPointer<UInt8>, now: UInt64) -> Action {
        peerClosed = true
        if state == .lingering { return close() }
        return received(bytes, now: now)
    }

    /// The async handler took the dispatched request.
    mutating func handlerStarted() -> Action {
        state = .handling
        return .wait
    }

    /// A reply to the current request is ready (the fast handler's, the async handler's, a
    /// refusal's, or the `503` of a server that is stopping): how to frame it. A refusal closes the
    /// connection, as does a request that asked to, and any reply while the server is stopping.
    mutating func replyReady(stopping: Bool, now: UInt64) -> ResponseEncoder.Framing {
        let framing: ResponseEncoder.Framing
        if state == .refusing {
            framing = ResponseEncoder.Framing(isHead: false, close: true, keepAliveForHTTP10: false)
        } else {
            framing = ResponseEncoder.Framing(
                isHead: isHeadRequest, close: !keepAlive || stopping, keepAliveForHTTP10: head.minorVersion == 0 && keepAlive)
        }
        state = .writing
        stateStart = now
        return framing
    }

    /// The reply is encoded; `closes` says whether the connection closes after it (as framed, or
    /// because the handler's reply said `Connection: close`).
    mutating func replyEncoded(closes: Bool) -> Action {
        closeAfterWrite = closes
        return .write
    }

    /// The last byte of the output went: the body after a `100 Continue`, the next request (one
    /// already buffered is read at once: pipelining), or the end.
    mutating func writeCompleted(_ bytes: UnsafeBufferPointer<UInt8>, now: UInt64) -> Action {
        switch state {
        case .continuing:
            state = .body
            return received(bytes, now: now)
        case .writing:
            if closeAfterWrite {
                if peerClosed { return close() }
                state = .lingering
                stateStart = now
                return .shutdownWrite
            }
            state = .head
            stateStart = now
            hasServed = true
            idle = bytes.isEmpty
            target = nil
            fields.removeAll(keepingCapacity: true)
            head = RequestHead()
            return received(bytes, now: now)
        default:
            return received(bytes, now: now)
        }
    }

    /// A timer tick: the timeouts. A head not complete within the header timeout is refused with
    /// `408` (a connection that never sent a byte is just closed), as is a body not complete within
    /// the idle timeout; an idle kept connection, a reply the client does not take and a lingering
    /// close end at theirs. A request with the async handler has no timeout here.
    mutating func tick(_ bytes: UnsafeBufferPointer<UInt8>, now: UInt64) -> Action {
        let elapsed = now &- stateStart
        switch state {
        case .head:
            if idle { return elapsed >= limits.idleTimeout ? close() : .wait }
            guard elapsed >= limits.headerTimeout else { return .wait }
            return bytes.isEmpty ? close() : refuse(.requestTimeout, bytes)
        case .body:
            return elapsed >= limits.idleTimeout ? refuse(.requestTimeout, bytes) : .wait
        case .continuing, .writing:
            return elapsed >= limits.idleTimeout ? close() : .wait
        case .lingering:
            return elapsed >= limits.lingerTimeout ? close() : .wait
        case .dispatching, .handling, .refusing, .closed:
            return .wait
        }
    }

    // MARK: rules

    /// Scans and parses the buffered head; an action when it is complete or refused (or blank
    /// lines come first), `nil` while more is needed.
    private mutating func readHead(_ bytes: UnsafeBufferPointer<UInt8>, now: UInt64) -> Action? {
        if scanner.position == 0 {
            // RFC 9112 §2.2: empty lines before a request line are ignored (some clients send one
            // after a body); on a kept connection they do not start the next head's clock.
            var blank = 0
            while bytes.count - blank >= 2, bytes[blank] == 0x0D, bytes[blank + 1] == 0x0A { blank += 2 }
            if blank > 0 {
                if blank == bytes.count, hasServed { idle = true }
                return .consume(blank)
            }
            if bytes.count == 1 && bytes[0] == 0x0D { return nil }
        }
        switch scanner.scan(bytes, limits.head) {
        case .incomplete:
            return nil
        case .refused(let refusal):
            return refuse(refusal, bytes)
        case .complete(let length):
            headLength = length
            head = RequestHead()
            if let refusal = head.parse(bytes, requestLineEnd: scanner.requestLineEnd ?? 0, length: length, fields: &fields) {
                return refuse(refusal, bytes)
            }
            switch RequestTarget.decode(
                UnsafeBufferPointer(rebasing: bytes[head.targetStart..<head.targetEnd]),
                maxQueryParameters: limits.maxQueryParameters)
            {
            case .failure(let refusal):
                return refuse(refusal, bytes)
            case .success(let decoded):
                target = decoded
            }
            // Refused before any of the body is read (the client may still be sending it).
            if head.hasTransferEncoding { return refuse(.lengthRequired, bytes) }
            if head.contentLength > limits.maxBodySize { return refuse(.payloadTooLarge, bytes) }
            if head.contentLength > 0, bytes.count < length + head.contentLength {
                stateStart = now
                if head.expectsContinue, head.minorVersion == 1 {
                    state = .continuing
                    return .sendContinue
                }
                state = .body
                return received(bytes, now: now)
            }
            return dispatch(bytes)
        }
    }

    private mutating func dispatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Action {
        keepAlive = head.keepAlive
        // `HEAD`, in its letter case: methods are case-sensitive (RFC 9110 §9.1).
        isHeadRequest = head.methodEnd == 4 && bytes[0] == 0x48 && bytes[1] == 0x45 && bytes[2] == 0x41 && bytes[3] == 0x44
        scanner.reset()
        state = .dispatching
        return .dispatch
    }

    /// Refuses the request being read: the reply is built from as much of it as was understood.
    private mutating func refuse(_ refusal: HTTPRefusal, _ bytes: UnsafeBufferPointer<UInt8>) -> Action {
        if head.targetEnd == 0, let lineFeed = bytes.firstIndex(of: 0x0A) {
            // Refused before its request line was parsed (a bare LF, a header limit, a timeout):
            // read what it can of it, for the reply's headers (`no-store` under `/auth/`).
            _ = head.parseRequestLine(bytes, end: lineFeed > 0 && bytes[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed)
        }
        state = .refusing
        return .refuse(refusal)
    }

    private mutating func close() -> Action {
        state = .closed
        return .close
    }
}

extension ConnectionStateMachine {
    /// The request as handlers see it, from the buffered `bytes`: after
    /// ``Action/dispatch`` the whole request, body included; after
    /// ``Action/refuse(_:)`` as much of it as was understood, without a body.
    func request(from bytes: UnsafeBufferPointer<UInt8>, remoteAddress: String) -> HTTPRequest {
        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var headers = HTTPHeaders()
        for field in fields {
            headers.add(text(field.nameStart, field.nameEnd), text(field.valueStart, field.valueEnd))
        }
        let body = state == .dispatching && head.contentLength > 0
            ? Array(UnsafeBufferPointer(rebasing: bytes[headLength..<(headLength + head.contentLength)])) : []
        var target = target
        if target == nil, head.targetEnd > head.targetStart {
            // A head refused after its request line: its path still decides the reply's headers
            // (`no-store` under `/auth/`); undecodable, it is given as sent (visible ASCII only).
            let raw = UnsafeBufferPointer(rebasing: bytes[head.targetStart..<head.targetEnd])
            target =
                (try? RequestTarget.decode(raw, maxQueryParameters: .max).get())
                ?? RequestTarget(path: String(decoding: raw.prefix { $0 != 0x3F }, as: UTF8.self), query: [:])
        }
        return HTTPRequest(
            method: text(0, head.methodEnd), path: target?.path ?? "", query: target?.query ?? [:],
            headers: headers, body: body, remoteAddress: remoteAddress)
    }
}
