import Foundation
import TestSupport
import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RoundTripTests {
    @Test func getAndPostCarryMethodPathQueryHeadersAndBody() async throws {
        let server = try startServer { request in
            var headers: HTTPHeaders = [
                "X-Method": request.method, "X-Path": request.path,
                "X-Query": "\(request.query["q"] ?? "-")|\(request.query["n"] ?? "-")",
                "X-Header": request.headers["x-test"] ?? "-",
            ]
            headers.add("Content-Type", "text/plain")
            return HTTPResponse(status: 201, headers: headers, body: request.body)
        }
        let port = server.port

        let get = try await fetch(port, "/auth/me/?q=a%20b&n=7", headers: ["X-Test": "hello"])
        #expect(get.status == 201)
        #expect(get.header("X-Method") == "GET")
        #expect(get.header("X-Path") == "/auth/me/")
        #expect(get.header("X-Query") == "a b|7")
        #expect(get.header("X-Header") == "hello")
        #expect(get.text.isEmpty)

        let post = try await fetch(port, "/echo", method: "POST", body: Data("{\"x\":1}".utf8))
        #expect(post.status == 201)
        #expect(post.header("X-Method") == "POST")
        #expect(post.text == "{\"x\":1}")
        #expect(post.header("Server") == nil)
        await server.shutdown()
    }

    @Test func portZeroBindsARealPortAndRemoteAddressIsLoopback() async throws {
        let server = try startServer { request in text(200, request.remoteAddress) }
        #expect(server.port > 0)
        let answer = try await fetch(server.port, "/who")
        #expect(answer.text == "127.0.0.1")
        await server.shutdown()
    }

    @Test func requestHeadersKeepOrderAndDuplicates() async throws {
        let server = try startServer { request in
            text(200, request.headers.filter { $0.name.hasPrefix("X-") }.map { "\($0.name)=\($0.value)" }
                .joined(separator: ","))
        }
        let answer = try await RawHTTP.exchange(port: server.port, [
            "GET / HTTP/1.1\r\nHost: x\r\nX-B: 1\r\nX-A: 2\r\nX-B: 3\r\nConnection: close\r\n\r\n",
        ])
        #expect(answer.text == "X-B=1,X-A=2,X-B=3")
        await server.shutdown()
    }

    @Test func fastHandlerAnswersWithoutTheAsyncHandler() async throws {
        let asyncCalls = EventLog()
        let server = try startServer(
            fastHandler: { $0.path == "/healthz" ? text(200, "ok") : nil },
            handler: { request in
                await asyncCalls.record(request.path)
                return text(200, "async")
            })
        let fast = try await fetch(server.port, "/healthz")
        let slow = try await fetch(server.port, "/other")
        #expect(fast.text == "ok")
        #expect(slow.text == "async")
        #expect(await asyncCalls.events == ["/other"])
        await server.shutdown()
    }

    @Test func pipelinedRequestsOnOneConnectionAreAnsweredInOrder() async throws {
        let server = try startServer(
            fastHandler: { $0.path == "/fast" ? text(200, "fast") : nil },
            handler: { request in text(200, request.path) })
        let answers = try await RawHTTP.pipeline(
            port: server.port,
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz"
                + "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n",
            count: 3)
        #expect(answers.map(\.text) == ["/a", "/b", "fast"])
        await server.shutdown()
    }

    @Test func headGetsHeadersWithoutBody() async throws {
        let server = try startServer { _ in text(200, "hello") }
        let answer = try await fetch(server.port, "/", method: "HEAD")
        #expect(answer.status == 200)
        #expect(answer.text.isEmpty)
        await server.shutdown()
    }

    @Test func expectContinueGets100BeforeTheBodyAndARefusalInstead() async throws {
        let server = try startServer(maxBodySize: 1024) { request in text(200, String(decoding: request.body, as: UTF8.self)) }
        let port = server.port
        let (interim, final) = try await onThread { () -> (Reply, Reply) in
            let socket = try RawHTTP.connect(port: port, receiveTimeout: 10)
            defer { close(socket) }
            try RawHTTP.send(socket, Array("POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n".utf8))
            var pending: [UInt8] = []
            let interim = try RawHTTP.readReply(socket, &pending)  // before any body byte is sent
            try RawHTTP.send(socket, Array("hello".utf8))
            return (interim, try RawHTTP.readReply(socket, &pending))
        }
        #expect(interim.status == 100)
        #expect(final.status == 200 && final.text == "hello")
        // Over the limit: the refusal comes instead of the 100, and nothing is read.
        let refused = try await RawHTTP.converse(
            port: port, "POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
        #expect(refused.replies.map(\.status) == [413])
        await server.shutdown()
    }

    @Test func http10IsClosedAfterItsReplyUnlessItAsksToKeepTheConnection() async throws {
        let server = try startServer { request in text(200, request.path) }
        let closing = try await RawHTTP.converse(port: server.port, "GET /a HTTP/1.0\r\n\r\n")
        #expect(closing.replies.map(\.text) == ["/a"] && closing.closed)
        #expect(closing.replies.first?.header("Connection") == "close")
        let kept = try await RawHTTP.converse(
            port: server.port, "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n")
        #expect(kept.replies.map(\.text) == ["/a", "/b"])
        #expect(kept.replies.first?.header("Connection") == "keep-alive")
        await server.shutdown()
    }
}
