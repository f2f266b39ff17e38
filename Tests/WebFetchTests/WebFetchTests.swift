#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import Foundation
import Synchronization
import Testing
import TestSupport
import WebFetch

/// WebFetcher against a real HTTP server on a loopback port: what it sends, what it returns, and
/// the limits it keeps (http/https only, no redirects, timeouts, a bounded body).
@Suite struct WebFetchTests {
    /// Paths and bodies the server was sent, in order.
    final class Seen: Sendable {
        let requests = Mutex<[(method: String, path: String, contentType: String?, body: [UInt8])]>([])
    }

    /// A server answering `/ok` with a small body, `/missing` with 404, `/moved` with a redirect
    /// to `/ok`, `/big` with `bigSize` bytes, and any POST with its own body echoed.
    static let bigSize = 4096

    private func startServer(_ seen: Seen) throws -> HTTPServer {
        let answer: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            seen.requests.withLock { $0.append((request.method, request.path, request.headers["Content-Type"], request.body)) }
            switch (request.method, request.path) {
            case ("GET", "/ok"): return HTTPResponse(status: 200, body: Array("hello".utf8))
            case ("GET", "/moved"): return HTTPResponse(status: 302, headers: ["Location": "/ok"], body: Array("see /ok".utf8))
            case ("GET", "/big"): return HTTPResponse(status: 200, body: [UInt8](repeating: 65, count: Self.bigSize))
            case ("POST", _): return HTTPResponse(status: 200, body: request.body)
            default: return HTTPResponse(status: 404, body: Array("no".utf8))
            }
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threads: 1), fastHandler: answer, handler: { answer($0) })
        try server.start()
        return server
    }

    /// Runs `body` with the server's base URL, what it was sent, and a fetcher; stops both after.
    private func withServer(_ body: (_ base: String, _ seen: Seen, _ fetcher: WebFetcher) async throws -> Void) async throws {
        let seen = Seen()
        let server = try startServer(seen)
        let fetcher = WebFetcher(threads: 1)
        defer { fetcher.stop() }
        do {
            try await body("http://127.0.0.1:\(server.port)", seen, fetcher)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func aReplyOfAnyStatusIsReturnedWithItsBody() async throws {
        try await withServer { base, _, fetcher in
            let ok = try await fetcher.fetch(WebRequest(url: base + "/ok"))
            #expect(ok.status == 200)
            #expect(ok.body == Array("hello".utf8))
            let missing = try await fetcher.fetch(WebRequest(url: base + "/nothing"))
            #expect(missing.status == 404)
            #expect(missing.body == Array("no".utf8))
        }
    }

    @Test func aFormIsPostedFormEncoded() async throws {
        try await withServer { base, seen, fetcher in
            let form = [("client_id", "com.example.mbti"), ("token", "a b&c=d+é")]
            let reply = try await fetcher.fetch(WebRequest(url: base + "/revoke", form: form))
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == "client_id=com.example.mbti&token=a%20b%26c%3Dd%2B%C3%A9")
            let request = try #require(seen.requests.withLock { $0.last })
            #expect(request.method == "POST")
            #expect(request.contentType == "application/x-www-form-urlencoded")
        }
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        try await withServer { base, seen, fetcher in
            let reply = try await fetcher.fetch(WebRequest(url: base + "/moved"))
            #expect(reply.status == 302)
            #expect(seen.requests.withLock { $0.map(\.path) } == ["/moved"])
        }
    }

    @Test func aBodyOverItsLimitFailsTheRequestAndOneAtItsLimitDoesNot() async throws {
        try await withServer { base, _, fetcher in
            let atLimit = try await fetcher.fetch(WebRequest(url: base + "/big", maximumBodySize: Self.bigSize))
            #expect(atLimit.body.count == Self.bigSize)
            await #expect(throws: WebFetchError.self) {
                try await fetcher.fetch(WebRequest(url: base + "/big", maximumBodySize: Self.bigSize - 1))
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aBodyWithNoLengthIsCutAtItsLimit() async throws {
        let server = try UnframedReplyServer(body: [UInt8](repeating: 66, count: Self.bigSize))
        let fetcher = WebFetcher(threads: 1)
        defer { fetcher.stop() }

        await #expect {
            try await fetcher.fetch(WebRequest(url: "http://127.0.0.1:\(server.port)/", maximumBodySize: 100))
        } throws: { error in
            (error as? WebFetchError)?.description == "the reply was longer than 100 bytes"
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/x"])
    func onlyHTTPAndHTTPSAreSpoken(url: String) async throws {
        let fetcher = WebFetcher(threads: 1)
        defer { fetcher.stop() }

        await #expect(throws: WebFetchError.self) { try await fetcher.fetch(WebRequest(url: url)) }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSilentServerTimesOut() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let fetcher = WebFetcher(threads: 1)
        defer { fetcher.stop() }
        let port = try #require(silent.url.port)

        await #expect(throws: WebFetchError.self) {
            try await fetcher.fetch(WebRequest(url: "http://127.0.0.1:\(port)/keys", timeout: 0.5))
        }
    }

    @Test func aFailureNeverNamesTheQuery() async throws {
        let port = try closedLoopbackPort()
        let fetcher = WebFetcher(threads: 1)
        defer { fetcher.stop() }

        await #expect {
            try await fetcher.fetch(WebRequest(url: "http://127.0.0.1:\(port)/token?secret=s3cr3t-value"))
        } throws: { error in
            guard let error = error as? WebFetchError else { return false }
            return !error.description.contains("s3cr3t-value") && !error.description.isEmpty
        }
    }
}

/// A loopback server that answers one connection with a 200 and `body` framed by nothing but the
/// connection's end (no Content-Length), so the client learns the length only as bytes arrive.
private final class UnframedReplyServer: Sendable {
    let port: Int

    init(body: [UInt8]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && getsockname(listener, generic, &length) == 0 && listen(listener, 1) == 0
            }
        }
        guard listener >= 0, ready else {
            if listener >= 0 { close(listener) }
            throw TestFailure("cannot listen on loopback")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let reply = Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + body
        Thread {
            defer { close(listener) }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &request, request.count)
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }.start()
    }
}
