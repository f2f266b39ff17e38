import AccountAPI
import Foundation
import TestSupport
import Testing

/// A sign-up's details, unique per call so tests sharing nothing still never collide.
struct TestAccount: Sendable {
    let username: String
    let email: String
    let password: String
    let mbti: MBTI

    /// An account with the given details (for tests of what the server refuses).
    init(username: String, email: String, password: String, mbti: MBTI = .enfp) {
        self.username = username
        self.email = email
        self.password = password
        self.mbti = mbti
    }

    init(_ tag: String = "user") {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        username = "\(tag.prefix(10))_\(suffix)"
        email = "\(tag.prefix(10)).\(suffix)@example.com"
        // Long, random and unlike the username or email, so no password rule refuses it.
        password = "Pw-\(UUID().uuidString)"
        mbti = .enfp
    }

    /// The sign-up body as the SDK sends it.
    var signUpRequest: SignUpRequest {
        SignUpRequest(username: username, email: email, password: password, passwordConfirmation: password, mbti: mbti)
    }
}

extension ServerProcess {
    /// `POST /auth/signup` without a token; expects 202.
    @discardableResult
    func signUp(_ account: TestAccount, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SignUpAccepted {
        let reply = try await client.send("POST", "/auth/signup", model: account.signUpRequest)
        try #require(reply.status == 202, "sign-up: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(SignUpAccepted.self)
    }

    /// Verifies `email` with the newest code mailed to it; expects 200.
    @discardableResult
    func verify(_ email: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> EmailVerified {
        let code = try await mail.code(to: email)
        let reply = try await client.send("POST", "/auth/email/verify", model: EmailVerifyRequest(email: email, code: code))
        try #require(reply.status == 200, "verify: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(EmailVerified.self)
    }

    /// `POST /auth/login` by username; expects 200.
    func logIn(_ account: TestAccount, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TokenPair {
        let reply = try await client.send("POST", "/auth/login", model: LoginRequest(username: account.username, password: account.password))
        try #require(reply.status == 200, "login: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(TokenPair.self)
    }

    /// Signs up, verifies by mail and logs in: a ready account and its first session.
    func verifiedAccount(_ tag: String = "user", sourceLocation: SourceLocation = #_sourceLocation) async throws -> (TestAccount, TokenPair) {
        let account = TestAccount(tag)
        try await signUp(account, sourceLocation: sourceLocation)
        try await verify(account.email, sourceLocation: sourceLocation)
        return (account, try await logIn(account, sourceLocation: sourceLocation))
    }

    /// `POST /auth/refresh`.
    func refresh(_ token: String) async throws -> Reply {
        try await client.send("POST", "/auth/refresh", model: RefreshRequest(refresh: token))
    }

    /// `GET /auth/me` with `token`.
    func me(_ token: String) async throws -> Reply {
        try await client.send("GET", "/auth/me", token: token)
    }
}
