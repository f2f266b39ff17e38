import AccountAPI
import Foundation
import TestSupport
import Testing

/// A server with Sign in with Apple against an ``AppleStandIn``, its clock moved by `--clock-file`.
struct AppleServer {
    let server: ServerProcess
    let apple: AppleStandIn
    let clock: TestClock
    let folder: TemporaryFolder

    static func start(_ extra: [String] = [], folder: TemporaryFolder? = nil, apple: AppleStandIn? = nil) async throws -> AppleServer {
        let folder = try folder ?? TemporaryFolder()
        let clock = try TestClock(in: folder)
        let apple = try apple ?? AppleStandIn(folder: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock, apple.serverArguments + extra)
        return AppleServer(server: server, apple: apple, clock: clock, folder: folder)
    }

    func stop() async {
        await server.stop()
        await apple.stop()
    }

    /// A new Apple user's identity: a fresh `sub`, an address (a private relay one unless given).
    static func newUser(email: String? = nil) -> (sub: String, email: String) {
        let sub = "001234." + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") + ".0420"
        return (sub, email ?? "\(UUID().uuidString.prefix(10).lowercased())@privaterelay.appleid.com")
    }

    /// A token for `sub`/`email` issued now on the server's clock, with a fresh raw nonce.
    func token(sub: String, email: String, spoil: (inout AppleStandIn.Claims) -> Void = { _ in }) -> (token: String, nonce: String) {
        let nonce = UUID().uuidString
        var claims = AppleStandIn.claims(sub: sub, email: email, nonce: nonce, now: clock.serverNow)
        spoil(&claims)
        return (apple.identityToken(claims), nonce)
    }

    /// `POST /auth/apple`.
    func signIn(_ token: String, nonce: String, code: String? = nil) async throws -> Reply {
        var body: [String: Any] = ["identity_token": token, "nonce": nonce]
        if let code { body["authorization_code"] = code }
        return try await server.client.send("POST", "/auth/apple", json: body)
    }

    /// `POST /auth/apple/complete`.
    func complete(_ continuation: String, username: String, mbti: String = "INTJ") async throws -> Reply {
        try await server.client.send(
            "POST", "/auth/apple/complete", json: ["continuation_token": continuation, "username": username, "mbti": mbti, "device_name": "Mina's iPhone"])
    }

    /// A new Apple user signed up to the end (`profile_required`, then completion): its identity,
    /// the refresh token Apple gave for its code, and the new session.
    func appleAccount(_ tag: String = "apple", sourceLocation: SourceLocation = #_sourceLocation) async throws -> (sub: String, email: String, appleRefresh: String, pair: TokenPair) {
        let (sub, email) = Self.newUser()
        let (code, refresh) = apple.authorizationCode()
        let (token, nonce) = self.token(sub: sub, email: email)
        let first = try await signIn(token, nonce: nonce, code: code)
        try #require(first.status == 403 && first.problem?.code == .profileRequired, "\(first.status) \(first.text)", sourceLocation: sourceLocation)
        let continuation = try #require(first.problem?.continuationToken, sourceLocation: sourceLocation)
        let username = "\(tag.prefix(10))_\(UUID().uuidString.prefix(6).lowercased())"
        let done = try await complete(continuation, username: username)
        try #require(done.status == 201, "complete: \(done.status) \(done.text)", sourceLocation: sourceLocation)
        return (sub, email, refresh, try done.decode(TokenPair.self))
    }
}
