import AccountAPI
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP rules of issue 11 against the real binary, over raw sockets: one address cannot hold
/// the server, a head has a total deadline, framing is strict and every refusal is one
/// problem+json reply, paths are exact, limits answer at once, and `X-Forwarded-For` is read whole.
/// Linux routes all of 127/8 to loopback, so 127.0.0.2 is another client of a server on 127.0.0.1.
@Suite struct HTTPHardeningTests {
    private static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// One problem+json reply from the app's renderer (request id, texts, common headers), then
    /// the connection closed.
    private static func expectRefused(
        _ conversation: Wire.Conversation, _ status: Int, _ code: ErrorCode, underAuth: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(conversation.replies.count == 1, "\(conversation.text.prefix(600))", sourceLocation: sourceLocation)
        #expect(conversation.statusLines == 1, "\(conversation.text.prefix(600))", sourceLocation: sourceLocation)
        #expect(conversation.closed, "the connection stayed open", sourceLocation: sourceLocation)
        guard let reply = conversation.replies.first else { return }
        ErrorReplyTests.expectProblem(reply, status, code, underAuth: underAuth, sourceLocation: sourceLocation)
        #expect(reply.header("Connection") == "close", sourceLocation: sourceLocation)
    }

    // MARK: connections

    @Test func aFloodOfHalfSentRequestsFromOneAddressDoesNotStopTheServerAnsweringAnother() async throws {
        Wire.raiseDescriptorLimit()
        let server = try await RunningServer.start()
        var held = try await Wire.holdHalfSent(port: server.port, count: 4600, source: "127.0.0.1")
        defer { Wire.closeAll(held) }  // once: a descriptor closed twice may by then be another test's
        try await Task.sleep(for: .milliseconds(300))
        #expect(Wire.stillOpen(held) == 64, "the default cap is 64 connections per address")
        let (reply, elapsed) = try await Wire.timed(port: server.port, source: "127.0.0.2", Self.healthz)
        #expect(reply?.status == 200)
        #expect(elapsed < .seconds(1), "answered after \(elapsed)")
        // The flooding address itself is refused at once, not left waiting.
        let more = try await Wire.converse(port: server.port, Self.healthz, source: "127.0.0.1", wait: 5)
        #expect(more.replies.isEmpty && more.closed)
        Wire.closeAll(held)
        held = []
        #expect(try await server.client.send("GET", "/healthz").status == 200)
        await server.stop()
    }

    @Test func theCapIsAnOptionWithAnEnvironmentTwinAndATrustedProxyIsNotCapped() async throws {
        let server = try await RunningServer.start(["--max-connections-per-address", "5", "--trusted-proxy", "127.0.0.3"])
        let five = try await Wire.holdHalfSent(port: server.port, count: 5, source: "127.0.0.1")
        defer { Wire.closeAll(five) }
        let sixth = try await Wire.converse(port: server.port, Self.healthz, source: "127.0.0.1", wait: 5)
        #expect(sixth.replies.isEmpty && sixth.closed)
        #expect(try await Wire.converse(port: server.port, Self.healthz, source: "127.0.0.2").replies.map(\.status) == [200])
        let proxy = try await Wire.holdHalfSent(port: server.port, count: 20, source: "127.0.0.3")
        defer { Wire.closeAll(proxy) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(Wire.stillOpen(proxy) == 20, "a balancer carries many clients")
        await server.stop()

        let twin = try await Wire.launch(environment: ["ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS": "3"])
        defer { twin.process.terminate() }
        let three = try await Wire.holdHalfSent(port: twin.port, count: 3, source: "127.0.0.1")
        defer { Wire.closeAll(three) }
        let fourth = try await Wire.converse(port: twin.port, Self.healthz, source: "127.0.0.1", wait: 5)
        #expect(fourth.replies.isEmpty && fourth.closed, "ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS=3")

        let (_, help, _) = try await runServerCommand(["--help"])
        #expect(help.contains("--max-connections-per-address") && help.contains("--header-timeout"))
    }

    @Test func aHeadTrickledSlowerThanItsDeadlineGets408ThoughEveryByteComesInTime() async throws {
        let server = try await RunningServer.start(["--header-timeout", "1"])
        let outcome = try await Wire.trickle(
            port: server.port, after: "GET /auth/policy HTTP/1.1\r\nHost: x\r\n", String(repeating: "X-Slow: a\r\n", count: 30),
            every: .milliseconds(100))
        #expect(outcome.reply?.status == 408, "\(outcome.text)")
        #expect(outcome.reply?.problem?.code == .requestTimeout)
        #expect(outcome.reply?.header("Cache-Control") == "no-store")
        #expect(outcome.elapsed < .seconds(8), "the trickle went on for \(outcome.elapsed)")
        await server.stop()
    }

    // MARK: framing

    static let smuggled = "GET /auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x\r\n\r\n"

    @Test(arguments: [
        "Content-Length: 0\r\nContent-Length: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count)\r\nContent-Length: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count), \(smuggled.utf8.count)",
        "Transfer-Encoding: chunked\r\nContent-Length: \(smuggled.utf8.count)",
    ])
    func twoFramingsGetOne400AndTheBodyIsNeverASecondRequest(_ framing: String) async throws {
        let server = try await RunningServer.start()
        let conversation = try await Wire.converse(
            port: server.port,
            "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(framing)\r\n\r\n" + Self.smuggled)
        Self.expectRefused(conversation, 400, .invalidRequest)
        #expect(!conversation.text.contains("401"), "the smuggled request was answered")
        await server.stop()
    }

    @Test(arguments: ["-1", "+5", "0x10", "99999999999999999999", "1 2", "1,2", "", "1.0", "٣"])
    func aBadContentLengthIsOneProblemReplyInTheClientsLanguage(_ value: String) async throws {
        let server = try await RunningServer.start()
        let conversation = try await Wire.converse(
            port: server.port,
            "POST /auth/login HTTP/1.1\r\nHost: x\r\nAccept-Language: ko\r\nX-Request-Id: bad-length\r\nContent-Length: \(value)\r\n\r\n{}")
        Self.expectRefused(conversation, 400, .invalidRequest)
        #expect(conversation.replies.first?.header("X-Request-Id") == "bad-length")
        #expect(conversation.replies.first?.problem?.detail?.contains("Content-Length") == true)
        let korean = conversation.replies.first?.text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
        #expect(korean == true, "Accept-Language: ko, got \(conversation.text)")
        await server.stop()
    }

    @Test(arguments: [
        "GET /auth/policy HTTP/1.1\r\n\r\n",  // no Host
        "GET /auth/policy HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nAuthorization\t: Bearer x\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Test: a\u{0}b\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Test: a\rb\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Test: a\r\n b\r\n\r\n",
        "GET /auth/policy HTTP/1.1\nHost: x\n\n",
    ])
    func malformedHeadsGet400AndTheConnectionIsClosed(_ request: String) async throws {
        let server = try await RunningServer.start()
        Self.expectRefused(try await Wire.converse(port: server.port, request), 400, .invalidRequest)
        await server.stop()
    }

    // MARK: paths

    @Test(arguments: ["/auth/me%00x", "/auth/me%0Ax", "/auth/me%7F", "/auth/policy?x=%00", "/auth/me%zz"])
    func controlCharactersInThePathAre400(_ target: String) async throws {
        let server = try await RunningServer.start()
        let (_, tokens) = try await server.verifiedAccount("ctl")
        let conversation = try await Wire.converse(
            port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(tokens.access)\r\n\r\n")
        Self.expectRefused(conversation, 400, .invalidRequest)
        await server.stop()
    }

    @Test func pathsNotInNormalFormAre404OnEveryRouteIncludingTheFastOne() async throws {
        let server = try await RunningServer.start()
        let (_, tokens) = try await server.verifiedAccount("paths")
        let sessions = try await server.client.send("GET", "/auth/sessions", token: tokens.access)
        let sessionID = try #require((sessions.object?["sessions"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(try await server.me(tokens.access).status == 200)
        for (method, path) in [
            ("GET", "//auth/me"), ("GET", "/auth//me"), ("GET", "/./auth/me"), ("GET", "/auth/./me"), ("GET", "/auth/../auth/me"),
            ("GET", "/auth/%2e%2e/auth/me"), ("GET", "/auth/me//"), ("GET", "//healthz"), ("GET", "//auth/policy"),
            ("GET", "//auth/sessions"), ("DELETE", "//auth/sessions/\(sessionID)"), ("DELETE", "/auth/sessions/./\(sessionID)"),
        ] {
            // Raw: URLSession would read `//auth/me` as a host name.
            let conversation = try await Wire.converse(
                port: server.port,
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(tokens.access)\r\nConnection: close\r\n\r\n")
            let reply = conversation.replies.first
            #expect(reply?.status == 404 && reply?.problem?.code == .notFound, "\(method) \(path): \(conversation.text)")
        }
        // Nothing was revoked by the odd spellings; the exact ones still work, trailing slash too.
        #expect(try await server.me(tokens.access).status == 200)
        #expect(try await server.client.send("GET", "/auth/me/", token: tokens.access).status == 200)
        #expect(try await server.client.send("GET", "/healthz/").status == 200)
        await server.stop()
    }

    // MARK: limits

    @Test func aLongQueryOrLineIs414AndTooManyHeadersAre431AtOnce() async throws {
        let server = try await RunningServer.start()
        let query = (0..<600).map { "a\($0)=1" }.joined(separator: "&")
        Self.expectRefused(
            try await Wire.converse(port: server.port, "GET /auth/policy?\(query) HTTP/1.1\r\nHost: x\r\n\r\n", wait: 5), 414, .uriTooLong)
        Self.expectRefused(
            try await Wire.converse(port: server.port, "GET /auth/" + String(repeating: "p", count: 10_000), wait: 5), 414, .uriTooLong,
            underAuth: false)
        let headers = (0..<150).map { "X-H\($0): v\r\n" }.joined()
        Self.expectRefused(
            try await Wire.converse(port: server.port, "GET /auth/policy HTTP/1.1\r\nHost: x\r\n\(headers)\r\n", wait: 5), 431,
            .headerFieldsTooLarge, underAuth: false)
        Self.expectRefused(
            try await Wire.converse(
                port: server.port, "GET /auth/policy HTTP/1.1\r\nHost: x\r\nCookie: " + String(repeating: "c", count: 40_000), wait: 5),
            431, .headerFieldsTooLarge, underAuth: false)
        #expect(try await server.client.send("GET", "/auth/policy?scope=x").status == 200)
        await server.stop()
    }

    // MARK: X-Forwarded-For

    @Test func everyForwardedForLineCountsSoAClientCannotPickItsAddress() async throws {
        let server = try await RunningServer.start(["--ip-rate-limit", "3", "--trusted-proxy", "127.0.0.1"])
        // The client sends a line of its own; the proxy appends the address it saw as another line.
        for index in 0..<3 {
            let conversation = try await Wire.converse(
                port: server.port,
                "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.\(index)\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n")
            #expect(conversation.replies.map(\.status) == [200], "\(index)")
        }
        let limited = try await Wire.converse(
            port: server.port,
            "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.99\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n")
        #expect(limited.replies.map(\.status) == [429], "the fourth request from 203.0.113.7")
        let other = try await Wire.converse(
            port: server.port,
            "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.1\r\nx-forwarded-for: 203.0.113.8, 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(other.replies.map(\.status) == [200], "another client behind the proxy")
        await server.stop()
        #expect(server.logs.contains(#""client":"203.0.113.7""#))
        #expect(!server.logs.contains(#""client":"10.9.9."#))
    }
}

/// Raw sockets for these tests, each exchange on a thread of its own (never on the cooperative pool).
private enum Wire {
    struct Conversation {
        var replies: [Reply]
        var closed: Bool
        var text: String
        /// Status lines received: a reply written twice shows as more than one.
        var statusLines: Int { text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.") }.count }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func converse(port: Int, _ request: String, source: String? = nil, wait: Int = 5) async throws -> Conversation {
        try await onThread {
            let socket = try connect(port: port, source: source, wait: wait)
            defer { close(socket) }
            send(socket, Array(request.utf8))
            let (bytes, closed) = readAll(socket)
            return Conversation(replies: parse(bytes), closed: closed, text: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// One request on a new connection from `source`, with the time from connect to reply.
    static func timed(port: Int, source: String, _ request: String) async throws -> (Reply?, Duration) {
        try await onThread {
            let started = ContinuousClock.now
            let socket = try connect(port: port, source: source, wait: 5)
            defer { close(socket) }
            send(socket, Array(request.utf8))
            let (bytes, _) = readAll(socket)
            return (parse(bytes).first, ContinuousClock.now - started)
        }
    }

    /// Sends `start`, then `rest` a byte at a time, `every` apart, until the server answers or closes.
    static func trickle(
        port: Int, after start: String, _ rest: String, every interval: Duration
    ) async throws -> (reply: Reply?, text: String, elapsed: Duration) {
        try await onThread {
            let socket = try connect(port: port, source: nil, wait: 1)
            defer { close(socket) }
            var timeout = timeval(tv_sec: 0, tv_usec: Int(interval.components.attoseconds / 1_000_000_000_000))
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let started = ContinuousClock.now
            send(socket, Array(start.utf8))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            for byte in Array(rest.utf8) {
                if Glibc.send(socket, [byte], 1, Int32(MSG_NOSIGNAL)) != 1 { break }
                let n = recv(socket, &buffer, buffer.count, 0)
                if n > 0 { received += buffer[..<n] }
                if n == 0 { break }
            }
            return (parse(received).first, String(decoding: received, as: UTF8.self), ContinuousClock.now - started)
        }
    }

    /// Opens `count` connections from `source` that each send the start of a head and stop;
    /// returns those the server kept (the ones it refused are let go along the way).
    static func holdHalfSent(port: Int, count: Int, source: String) async throws -> [Int32] {
        try await onThread {
            var sockets: [Int32] = []
            for index in 0..<count {
                guard let socket = try? connect(port: port, source: source, wait: 1) else { continue }
                send(socket, Array("GET /auth/policy HTTP/1.1\r\nHost: x\r\n".utf8))
                sockets.append(socket)
                if index % 50 == 49 {
                    let open = sockets.filter(isOpen)
                    for socket in sockets where !open.contains(socket) { close(socket) }
                    sockets = open
                }
            }
            return sockets
        }
    }

    static func stillOpen(_ sockets: [Int32]) -> Int { sockets.filter(isOpen).count }

    static func closeAll(_ sockets: [Int32]) {
        for socket in sockets { close(socket) }
    }

    /// Starts the server with only `environment` for options (plus a fresh database), waits for
    /// its port.
    static func launch(environment: [String: String]) async throws -> (process: Process, port: Int, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = try Binaries.server()
        process.arguments = ["serve", "--port", "0", "--database-url", "sqlite:\(folder.database.path)", "--mail", "file://\(folder.mail.path)"]
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACCOUNT_") }
        variables.merge(environment) { $1 }
        process.environment = variables
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try await onThread { () -> String in
            var text = ""
            while !text.contains("\n") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        guard let port = RunningServer.listeningPort(in: line) else {
            process.terminate()
            throw Failure(description: "no listening line: \(line)")
        }
        return (process, port, folder)
    }

    /// Raises this process's open-file limit, so a flood's sockets fit on a machine with a low default.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = min(limit.rlim_max, 16384)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func connect(port: Int, source: String?, wait: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: wait, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func address(_ text: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(text)
            return address
        }
        if let source {
            var local = address(source, 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(socket)
                throw Failure(description: "bind \(source): errno \(errno)")
            }
        }
        var remote = address("127.0.0.1", port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect: errno \(errno)")
        }
        return socket
    }

    private static func send(_ socket: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Reads until the server closes (true) or the receive timeout passes (false).
    private static func readAll(_ socket: Int32) -> ([UInt8], Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n > 0 {
                received += buffer[..<n]
                continue
            }
            return (received, n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        }
    }

    private static func isOpen(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Every whole reply in `bytes`, in order.
    private static func parse(_ bytes: [UInt8]) -> [Reply] {
        var replies: [Reply] = []
        var rest = bytes[...]
        let separator: [UInt8] = [13, 10, 13, 10]
        while let end = rest.firstRange(of: separator) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            guard lines[0].hasPrefix("HTTP/1."), let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") else { break }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            guard rest.distance(from: end.upperBound, to: rest.endIndex) >= length else { break }
            let bodyEnd = rest.index(end.upperBound, offsetBy: length)
            replies.append(Reply(status: status, headers: headers, body: Data(rest[end.upperBound..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return replies
    }
}
