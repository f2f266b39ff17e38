@testable import HTTPServer
import Testing

/// A connection's state machine driven the way its event loop drives it, with no socket: the
/// client's bytes are appended to `buffered`, and each action the machine returns is performed
/// here by hand (consuming bytes, framing a reply, reporting the end of a write).
private struct Driver {
    typealias Action = ConnectionStateMachine.Action

    /// Small limits, so each is easy to reach: a 16-byte body, a 64-byte request line, 128 bytes
    /// and 4 lines of headers, 3 query parameters; 10 s for a head, 30 s idle.
    static let configuration = HTTPServerConfiguration(
        maxBodySize: 16, headerTimeout: 10, connectionTimeout: 30, maxRequestLineLength: 64, maxHeaderBytes: 128,
        maxHeaderCount: 4, maxQueryParameters: 3)
    static let limits = ConnectionStateMachine.Limits(configuration)

    var machine: ConnectionStateMachine
    var buffered: [UInt8] = []
    var now: UInt64 = 1_000

    init() {
        machine = ConnectionStateMachine(limits: Self.limits, now: now)
    }

    var state: ConnectionStateMachine.State { machine.state }

    /// Calls `event` with the machine and the bytes buffered now.
    private mutating func report(_ event: (inout ConnectionStateMachine, UnsafeBufferPointer<UInt8>, UInt64) -> Action) -> Action {
        let bytes = buffered
        let now = now
        return bytes.withUnsafeBufferPointer { event(&machine, $0, now) }
    }

    /// The client's bytes arrive.
    mutating func receive(_ text: String) -> Action {
        buffered += Array(text.utf8)
        return report { $0.received($1, now: $2) }
    }

    /// Performs ``Action/consume(_:)``.
    mutating func consume(_ count: Int) -> Action {
        buffered.removeFirst(count)
        return report { $0.received($1, now: $2) }
    }

    /// The client closes its writing half.
    mutating func endInput() -> Action {
        report { $0.inputEnded($1, now: $2) }
    }

    /// Performs ``Action/dispatch``: builds the request and consumes it.
    mutating func takeRequest() -> HTTPRequest {
        let request = buffered.withUnsafeBufferPointer { machine.request(from: $0, remoteAddress: "192.0.2.1") }
        buffered.removeFirst(machine.requestLength)
        return request
    }

    /// Performs ``Action/refuse(_:)``'s first half: the request as far as it was understood.
    func refusedRequest() -> HTTPRequest {
        buffered.withUnsafeBufferPointer { machine.request(from: $0, remoteAddress: "192.0.2.1") }
    }

    /// A reply is ready and encoded; the framing the machine asked for.
    mutating func reply(stopping: Bool = false, handlerSaysClose: Bool = false) -> ResponseEncoder.Framing {
        let framing = machine.replyReady(stopping: stopping, now: now)
        #expect(machine.replyEncoded(closes: framing.close || handlerSaysClose) == .write)
        return framing
    }

    /// The output was sent.
    mutating func written() -> Action {
        report { $0.writeCompleted($1, now: $2) }
    }

    /// `milliseconds` pass, then the timer ticks.
    mutating func tick(after milliseconds: UInt64) -> Action {
        now += milliseconds
        return report { $0.tick($1, now: $2) }
    }

    /// The client sends `text`, a complete request: it is dispatched, built and consumed.
    @discardableResult
    mutating func sendRequest(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPRequest {
        guard case .dispatch = receive(text) else {
            Issue.record("not dispatched: \(text.debugDescription)", sourceLocation: sourceLocation)
            return HTTPRequest(method: "", path: "")
        }
        return takeRequest()
    }

    /// A tick just before `milliseconds` from now does nothing; one at them gives `action`.
    mutating func expectDeadline(in milliseconds: UInt64, _ action: Action, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tick(after: milliseconds - 1) == .wait, sourceLocation: sourceLocation)
        #expect(tick(after: 1) == action, sourceLocation: sourceLocation)
    }

    /// Answers the dispatched request and sends the reply, keeping the connection; the action after.
    mutating func answer() -> Action {
        let framing = reply()
        #expect(!framing.close)
        return written()
    }
}

private let get = "GET /auth/me HTTP/1.1\r\nHost: a\r\n\r\n"
private let headLimit = Driver.limits.headBufferLimit

@Suite struct ConnectionStateMachineTests {
    // MARK: framing

    @Test func aNewConnectionReadsAHead() {
        var driver = Driver()
        #expect(driver.receive("") == .read(limit: headLimit))
        #expect(driver.state == .head)
    }

    @Test func aCompleteHeadIsDispatchedWithItsParts() {
        var driver = Driver()
        #expect(driver.receive("GET /a%20b?x=1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: r1\r\n\r\n") == .dispatch)
        #expect(driver.state == .dispatching)
        let request = driver.takeRequest()
        #expect(request.method == "GET")
        #expect(request.path == "/a b")
        #expect(request.query == ["x": "1"])
        #expect(request.headers["x-request-id"] == "r1")
        #expect(request.body.isEmpty)
        #expect(request.remoteAddress == "192.0.2.1")
        #expect(driver.buffered.isEmpty)
    }

    @Test func aHeadTrickledInIsReadUntilItsEmptyLine() {
        var driver = Driver()
        for byte in get.utf8.dropLast() {
            #expect(driver.receive(String(UnicodeScalar(byte))) == .read(limit: headLimit))
        }
        #expect(driver.receive("\n") == .dispatch)
    }

    @Test func blankLinesBeforeARequestAreDropped() {
        var driver = Driver()
        #expect(driver.receive("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n") == .consume(4))
        #expect(driver.consume(4) == .dispatch)
        #expect(driver.takeRequest().path == "/")
    }

    @Test func blankLinesAfterAReplyKeepTheConnectionIdle() {
        var driver = Driver()
        driver.sendRequest(get)
        #expect(driver.answer() == .read(limit: headLimit))
        #expect(driver.receive("\r\n") == .consume(2))
        #expect(driver.consume(2) == .read(limit: headLimit))
        #expect(driver.machine.idle)
        // Idle, the idle timeout applies, not the header timeout.
        #expect(driver.tick(after: 10_000) == .wait)
        #expect(driver.tick(after: 20_000) == .close)
    }

    @Test func aBodyIsReadToItsContentLengthThenDispatched() {
        var driver = Driver()
        let head = "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"
        #expect(driver.receive(head + "he") == .read(limit: head.utf8.count + 5))
        #expect(driver.state == .body)
        #expect(driver.receive("llo") == .dispatch)
        let request = driver.takeRequest()
        #expect(request.body == Array("hello".utf8))
    }

    @Test func aBodyThatCameWithItsHeadIsDispatchedAtOnce() {
        var driver = Driver()
        #expect(driver.receive("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok") == .dispatch)
        #expect(driver.takeRequest().body == Array("ok".utf8))
    }

    @Test func expectContinueGetsAContinueBeforeTheBody() {
        var driver = Driver()
        let head = "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
        #expect(driver.receive(head) == .sendContinue)
        #expect(driver.state == .continuing)
        #expect(driver.receive("") == .write)
        #expect(driver.written() == .read(limit: head.utf8.count + 3))
        #expect(driver.receive("abc") == .dispatch)
    }

    @Test func expectContinueFromHTTP10IsNotAnswered() {
        var driver = Driver()
        let head = "PUT /x HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
        #expect(driver.receive(head) == .read(limit: head.utf8.count + 3))
    }

    @Test func aHeadRequestIsFramedWithoutABody() {
        var driver = Driver()
        driver.sendRequest("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(driver.reply().isHead)
    }

    @Test func aLowercaseHeadMethodIsNotHead() {
        var driver = Driver()
        _ = driver.receive("head / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(driver.takeRequest().method == "head")
        #expect(!driver.reply().isHead)
    }

    // MARK: keep-alive and pipelining

    @Test func aKeptConnectionReadsTheNextRequestAfterTheReply() {
        var driver = Driver()
        driver.sendRequest(get)
        #expect(driver.state == .dispatching)
        #expect(driver.answer() == .read(limit: headLimit))
        #expect(driver.state == .head)
        #expect(driver.machine.idle)
        #expect(driver.receive(get) == .dispatch)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() {
        var driver = Driver()
        let second = "GET /second HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(driver.receive("GET /first HTTP/1.1\r\nHost: a\r\n\r\n" + second) == .dispatch)
        #expect(driver.takeRequest().path == "/first")
        // Nothing of the second is looked at until the first reply is sent.
        #expect(driver.receive("") == .wait)
        _ = driver.reply()
        #expect(driver.receive("") == .write)
        #expect(driver.written() == .dispatch)
        #expect(!driver.machine.idle)
        #expect(driver.takeRequest().path == "/second")
    }

    @Test func connectionCloseClosesAfterTheReplyAndLingers() {
        var driver = Driver()
        driver.sendRequest("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(driver.reply().close)
        #expect(driver.written() == .shutdownWrite)
        #expect(driver.state == .lingering)
        #expect(driver.receive("unread upload") == .discardInput)
        #expect(driver.endInput() == .close)
        #expect(driver.state == .closed)
    }

    @Test func aHandlersConnectionCloseClosesAfterTheReply() {
        var driver = Driver()
        driver.sendRequest(get)
        #expect(!driver.reply(handlerSaysClose: true).close)
        #expect(driver.written() == .shutdownWrite)
    }

    @Test func everyReplyClosesOnceTheServerIsStopping() {
        var driver = Driver()
        driver.sendRequest(get)
        #expect(driver.reply(stopping: true).close)
        #expect(driver.written() == .shutdownWrite)
    }

    @Test func http10ClosesUnlessItAsksForKeepAlive() {
        var closing = Driver()
        closing.sendRequest("GET / HTTP/1.0\r\n\r\n")
        let framing = closing.reply()
        #expect(framing.close && !framing.keepAliveForHTTP10)

        var kept = Driver()
        kept.sendRequest("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let keptFraming = kept.reply()
        #expect(!keptFraming.close && keptFraming.keepAliveForHTTP10)
        #expect(kept.written() == .read(limit: headLimit))
    }

    @Test func theAsyncHandlerHoldsTheConnectionWithoutATimeout() {
        var driver = Driver()
        driver.sendRequest(get)
        #expect(driver.machine.handlerStarted() == .wait)
        #expect(driver.state == .handling)
        #expect(driver.receive(get) == .wait)
        #expect(driver.tick(after: 600_000) == .wait)
        #expect(driver.answer() == .dispatch)
    }

    // MARK: refusals

    @Test func aChunkedBodyIsRefusedUnread() {
        var driver = Driver()
        #expect(driver.receive("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n") == .refuse(.lengthRequired))
        #expect(driver.state == .refusing)
        #expect(driver.refusedRequest().path == "/x")
        let framing = driver.reply()
        #expect(framing.close && !framing.isHead)
        #expect(driver.written() == .shutdownWrite)
    }

    @Test func aBodyOverTheLimitIsRefusedBeforeItIsRead() {
        var driver = Driver()
        #expect(driver.receive("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n") == .refuse(.payloadTooLarge))
        let request = driver.refusedRequest()
        #expect(request.path == "/up")
        #expect(request.body.isEmpty)
        #expect(driver.reply().close)
    }

    @Test func aBodyAtTheLimitIsRead() {
        var driver = Driver()
        let head = "POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 16\r\n\r\n"
        #expect(driver.receive(head) == .read(limit: head.utf8.count + 16))
    }

    @Test func aLongRequestLineIsRefusedBeforeItEnds() {
        var driver = Driver()
        #expect(driver.receive("GET /" + String(repeating: "a", count: 70)) == .refuse(.uriTooLong))
    }

    @Test func tooManyHeaderLinesAreRefused() {
        var driver = Driver()
        let lines = (1...5).map { "X-\($0): v\r\n" }.joined()
        #expect(driver.receive("GET /auth/me HTTP/1.1\r\nHost: a\r\n" + lines) == .refuse(.headerFieldsTooLarge))
        // The path is still known to the refusal (its reply's headers depend on it).
        #expect(driver.refusedRequest().path == "/auth/me")
    }

    @Test func tooManyHeaderBytesAreRefused() {
        var driver = Driver()
        #expect(driver.receive("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 140)) == .refuse(.headerFieldsTooLarge))
    }

    @Test func tooManyQueryParametersAreRefused() {
        var driver = Driver()
        #expect(driver.receive("GET /?a=1&b=2&c=3&d=4 HTTP/1.1\r\nHost: a\r\n\r\n") == .refuse(.uriTooLong))
    }

    @Test func malformedHeadsAreRefused() {
        let cases: [(String, HTTPRefusal)] = [
            ("GET / HTTP/1.1\nHost: a\r\n\r\n", .malformed(.framing)),
            ("GET / HTTP/1.1\r\n\r\n", .malformed(.host)),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .malformed(.host)),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", .malformed(.contentLength)),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", .malformed(.contentLength)),
            ("GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n", .malformed(.target)),
            ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", .versionNotSupported),
        ]
        for (head, refusal) in cases {
            var driver = Driver()
            #expect(driver.receive(head) == .refuse(refusal), "\(head.debugDescription)")
            #expect(driver.reply().close)
        }
    }

    @Test func aRefusalClosesEvenAfterAKeptRequest() {
        var driver = Driver()
        driver.sendRequest(get)
        _ = driver.answer()
        #expect(driver.receive("GET / HTTP/1.1\r\n\r\n") == .refuse(.malformed(.host)))
        #expect(driver.reply().close)
        #expect(driver.written() == .shutdownWrite)
    }

    // MARK: timeouts

    @Test func aConnectionThatSendsNothingIsClosedAtTheHeaderTimeout() {
        var driver = Driver()
        driver.expectDeadline(in: 10_000, .close)
    }

    @Test func aSlowHeadIsRefusedAtTheHeaderTimeoutHoweverItTrickles() {
        var driver = Driver()
        _ = driver.receive("GET /auth/me HTTP/1.1\r\n")
        for _ in 0..<9 {
            #expect(driver.tick(after: 1_000) == .wait)
            #expect(driver.receive("X") == .read(limit: headLimit))
        }
        #expect(driver.tick(after: 1_000) == .refuse(.requestTimeout))
        #expect(driver.refusedRequest().path == "/auth/me")
        #expect(driver.reply().close)
    }

    @Test func theHeaderTimeoutOfANextRequestStartsAtItsFirstByte() {
        var driver = Driver()
        driver.sendRequest(get)
        _ = driver.answer()
        #expect(driver.tick(after: 25_000) == .wait)
        _ = driver.receive("GET")
        #expect(driver.tick(after: 9_000) == .wait)
        #expect(driver.tick(after: 1_000) == .refuse(.requestTimeout))
    }

    @Test func anIdleKeptConnectionIsClosedAtTheIdleTimeout() {
        var driver = Driver()
        driver.sendRequest(get)
        _ = driver.answer()
        driver.expectDeadline(in: 30_000, .close)
    }

    @Test func aSlowBodyIsRefusedAtTheIdleTimeout() {
        var driver = Driver()
        _ = driver.receive("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab")
        driver.expectDeadline(in: 30_000, .refuse(.requestTimeout))
        #expect(driver.refusedRequest().body.isEmpty)
    }

    @Test func aClientThatDoesNotTakeItsReplyIsClosedAtTheIdleTimeout() {
        var driver = Driver()
        driver.sendRequest(get)
        _ = driver.reply()
        driver.expectDeadline(in: 30_000, .close)
    }

    @Test func aContinueTheClientDoesNotTakeIsClosedAtTheIdleTimeout() {
        var driver = Driver()
        _ = driver.receive("PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(driver.tick(after: 30_000) == .close)
    }

    @Test func lingeringEndsAtTheLingerTimeout() {
        var driver = Driver()
        driver.sendRequest("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        _ = driver.reply()
        #expect(driver.written() == .shutdownWrite)
        driver.expectDeadline(in: 2_000, .close)
    }

    // MARK: half-close

    @Test func aRequestBufferedBeforeTheClientClosedIsStillAnswered() {
        var driver = Driver()
        #expect(driver.receive(get) == .dispatch)
        _ = driver.takeRequest()
        #expect(driver.endInput() == .wait)
        _ = driver.reply()
        // Kept alive as asked, but nothing more can come: closed once the reply is sent.
        #expect(driver.written() == .close)
    }

    @Test func aPipelinedRequestBeforeTheEndIsStillAnswered() {
        var driver = Driver()
        buffer(&driver, get + get)
        #expect(driver.endInput() == .dispatch)
        _ = driver.takeRequest()
        #expect(driver.answer() == .dispatch)
        _ = driver.takeRequest()
        #expect(driver.answer() == .close)
    }

    @Test func aClosingReplyToAClosedClientSkipsLingering() {
        var driver = Driver()
        driver.sendRequest("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        _ = driver.endInput()
        _ = driver.reply()
        #expect(driver.written() == .close)
    }

    @Test func theEndOfInputInAHeadOrABodyCloses() {
        var inHead = Driver()
        _ = inHead.receive("GET / HT")
        #expect(inHead.endInput() == .close)

        var inBody = Driver()
        _ = inBody.receive("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab")
        #expect(inBody.endInput() == .close)

        var idle = Driver()
        #expect(idle.endInput() == .close)
    }
}

/// Buffers `text` without reporting it (it arrived together with the end of input).
private func buffer(_ driver: inout Driver, _ text: String) {
    driver.buffered += Array(text.utf8)
}
