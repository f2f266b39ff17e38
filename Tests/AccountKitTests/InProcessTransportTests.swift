import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The in-process transport the SDK tests run over answers as the real binary does over a
/// socket: the same statuses, the headers the client reads, and the same bodies.
@Suite struct InProcessTransportTests {
    /// The same request through both transports: status, and the headers a client acts on.
    func bothWays(_ request: URLRequest, _ live: ServerProcess, _ app: InProcessServer) async throws -> [(Int, [String: String], Data)] {
        var replies: [(Int, [String: String], Data)] = []
        for (base, transport) in [(live.baseURL, { try await URLSession.shared.data(for: $0) } as HTTPTransport), (app.baseURL, app.transport)] {
            var request = request
            // The same id both ways, so its echo is compared too (else each side makes one up).
            if request.value(forHTTPHeaderField: "X-Request-Id") == nil { request.setValue("transport-check", forHTTPHeaderField: "X-Request-Id") }
            request.url = URL(string: request.url!.absoluteString.replacingOccurrences(of: "http://server", with: base.absoluteString))
            let (data, response) = try await transport(request)
            let http = try #require(response as? HTTPURLResponse)
            let names = ["Content-Type", "Cache-Control", "WWW-Authenticate", "Retry-After", "X-Content-Type-Options", "X-Request-Id"]
            replies.append((http.statusCode, Dictionary(uniqueKeysWithValues: names.compactMap { name in http.value(forHTTPHeaderField: name).map { (name, $0) } }), data))
        }
        return replies
    }

    @Test func repliesMatchTheRealServersOverASocket() async throws {
        let live = try await ServerProcess.start()
        let app = try await inProcessServer()

        // A read, a refusal with a challenge, a query, a path with an id and a body in the client's language.
        var policy = URLRequest(url: URL(string: "http://server/auth/policy")!)
        policy.setValue("policy-1", forHTTPHeaderField: "X-Request-Id")
        var me = URLRequest(url: URL(string: "http://server/auth/me")!)
        me.setValue("Bearer not.a.token", forHTTPHeaderField: "Authorization")
        var logout = URLRequest(url: URL(string: "http://server/auth/logout?scope=everywhere")!)
        logout.httpMethod = "POST"
        var session = URLRequest(url: URL(string: "http://server/auth/sessions/not-a-uuid")!)
        session.httpMethod = "DELETE"
        var login = URLRequest(url: URL(string: "http://server/auth/login")!)
        login.httpMethod = "POST"
        login.setValue("application/json", forHTTPHeaderField: "Content-Type")
        login.setValue("ko", forHTTPHeaderField: "Accept-Language")
        login.httpBody = Data(#"{"username":"nobody","password":"not the password"}"#.utf8)

        for request in [policy, me, logout, session, login] {
            let replies = try await bothWays(request, live, app)
            let (socket, inProcess) = (replies[0], replies[1])
            let name = "\(request.httpMethod ?? "GET") \(request.url!.path)"
            #expect(socket.0 == inProcess.0, "\(name): status")
            #expect(socket.1 == inProcess.1, "\(name): headers")
            let bodies = [socket.2, inProcess.2].map { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            #expect(bodies[0]?.keys.sorted() == bodies[1]?.keys.sorted(), "\(name): body fields")
            #expect(bodies[0]?["code"] as? String == bodies[1]?["code"] as? String, "\(name): error code")
            #expect(bodies[0]?["detail"] as? String == bodies[1]?["detail"] as? String, "\(name): text")
        }
        #expect(try await live.client().policy() == (try await app.client().policy()))
        await live.stop()
    }
}
