import AccountAPI
import Foundation
import Testing

/// A sign-up's details: unique per call (``init(_:)``), so tests sharing a server never collide,
/// or given (for tests of what the server refuses, or of one spelling).
public struct TestAccount: Sendable, Equatable {
    public let username: String
    public let email: String
    public let password: String
    public let mbti: MBTI

    public init(username: String, email: String, password: String, mbti: MBTI = .enfp) {
        self.username = username
        self.email = email
        self.password = password
        self.mbti = mbti
    }

    /// A fresh account whose nickname and address start with `tag`.
    public init(_ tag: String = "user") {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        username = "\(tag.prefix(10))_\(suffix)"
        email = "\(tag.prefix(10)).\(suffix)@example.com"
        // Long, random and unlike the username or email, so no password rule refuses it.
        password = "Pw-\(UUID().uuidString)"
        mbti = .enfp
    }

    /// The details-first sign-up body, as the SDK sends it.
    public var signUpRequest: SignUpRequest {
        SignUpRequest(username: username, email: email, password: password, passwordConfirmation: password, mbti: mbti)
    }

    /// The same sign-up as a JSON object, for a body sent some other way (a burst, a raw socket).
    public var signUpFields: [String: String] {
        ["username": username, "email": email, "password": password, "password_confirmation": password, "mbti": mbti.rawValue]
    }

    /// A login by nickname.
    public var loginRequest: LoginRequest { LoginRequest(username: username, password: password) }

    /// 민수 (`minsu@example.com`), for tests that name the account's details.
    public static let minsu = TestAccount(username: "민수", email: "minsu@example.com", password: "correct horse battery")
}

/// An account with its authenticator app turned on.
public struct SecondFactorAccount: Sendable {
    public let account: TestAccount
    /// The session of the enrolment (kept by the confirmation; every other one ends).
    public let pair: TokenPair
    public let secret: [UInt8]
    public let recoveryCodes: [String]

    /// The authenticator's code at `date` (a time ``TestClock/nextServerStep()`` returned).
    public func code(at date: Date) -> String { TOTPGenerator.code(secret: secret, at: date) }
}

/// An operator signed in with the second factor: the account, its id and its access token.
public struct SignedInOperator: Sendable {
    public let factor: SecondFactorAccount
    public let id: String
    public let access: String
}

/// The one account factory: every test that needs an account makes it here, on any
/// ``TestServer``, through the API as a client would (the code read from the mail the server
/// sent). Each step requires its expected status, so a broken step fails where it broke.
extension TestServer {
    /// `POST /auth/signup` without a token (details first), whatever the reply: for tests of
    /// what the server refuses or hides.
    public func trySignUp(_ account: TestAccount, headers: [String: String] = [:]) async throws -> Reply {
        try await send("POST", "/auth/signup", model: account.signUpRequest, headers: headers)
    }

    /// `POST /auth/signup` without a token (details first); expects 202.
    @discardableResult
    public func signUp(
        _ account: TestAccount, headers: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SignUpAccepted {
        let reply = try await trySignUp(account, headers: headers)
        try #require(reply.status == 202, "sign-up: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(SignUpAccepted.self)
    }

    /// Verifies `email` with the code of the newest message to it (waiting for `skipping` + 1
    /// messages); expects 200.
    @discardableResult
    public func verify(_ email: String, skipping: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws -> EmailVerified {
        let code = try await mail.code(to: email, skipping: skipping)
        let reply = try await send("POST", "/auth/email/verify", model: EmailVerifyRequest(email: email, code: code))
        try #require(reply.status == 200, "verify: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(EmailVerified.self)
    }

    /// `POST /auth/login` by nickname; expects 200.
    public func logIn(
        _ account: TestAccount, headers: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TokenPair {
        let reply = try await send("POST", "/auth/login", model: account.loginRequest, headers: headers)
        try #require(reply.status == 200, "login: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(TokenPair.self)
    }

    /// Signs up and verifies by mail: an account that logs in, with no session yet.
    @discardableResult
    public func registered(_ account: TestAccount = TestAccount(), sourceLocation: SourceLocation = #_sourceLocation) async throws -> TestAccount {
        try await signUp(account, sourceLocation: sourceLocation)
        try await verify(account.email, sourceLocation: sourceLocation)
        return account
    }

    /// Signs up, verifies by mail and logs in: the account's first session.
    @discardableResult
    public func signedIn(_ account: TestAccount, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TokenPair {
        try await registered(account, sourceLocation: sourceLocation)
        return try await logIn(account, sourceLocation: sourceLocation)
    }

    /// A fresh account (``TestAccount/init(_:)``) signed in: the account and its first session.
    @discardableResult
    public func verifiedAccount(_ tag: String = "user", sourceLocation: SourceLocation = #_sourceLocation) async throws -> (TestAccount, TokenPair) {
        let account = TestAccount(tag)
        return (account, try await signedIn(account, sourceLocation: sourceLocation))
    }

    /// A fresh signed-in account with its authenticator app turned on (`POST /auth/mfa/totp`, then
    /// `/confirm` with the tests' own code at the server's clock).
    public func accountWithSecondFactor(_ tag: String = "mfa", sourceLocation: SourceLocation = #_sourceLocation) async throws -> SecondFactorAccount {
        let (account, pair) = try await verifiedAccount(tag, sourceLocation: sourceLocation)
        let enrolment = try await send("POST", "/auth/mfa/totp", model: TOTPEnrollRequest(password: account.password), token: pair.access)
        try #require(enrolment.status == 200, "enrol: \(enrolment.text)", sourceLocation: sourceLocation)
        let secret = try #require(TOTPGenerator.base32Decode(try enrolment.decode(TOTPEnrollment.self).secret), sourceLocation: sourceLocation)
        let code = TOTPGenerator.code(secret: secret, at: clock.nextServerStep())
        let confirmed = try await send("POST", "/auth/mfa/totp/confirm", model: TOTPConfirmRequest(code: code), token: pair.access)
        try #require(confirmed.status == 200, "confirm: \(confirmed.text)", sourceLocation: sourceLocation)
        return SecondFactorAccount(account: account, pair: pair, secret: secret, recoveryCodes: try confirmed.decode(RecoveryCodes.self).recoveryCodes)
    }

    /// A fresh account with a second factor, given the admin role (``grantAdmin(_:)``) and signed
    /// in with its authenticator (`amr` names `otp`).
    public func signedInOperator(_ tag: String = "op", sourceLocation: SourceLocation = #_sourceLocation) async throws -> SignedInOperator {
        let factor = try await accountWithSecondFactor(tag, sourceLocation: sourceLocation)
        try await grantAdmin(factor.account.username)
        let challenge = try await self.challenge(factor.account, sourceLocation: sourceLocation)
        let reply = try await answer(challenge.mfaToken, code: factor.code(at: clock.nextServerStep()))
        try #require(reply.status == 200, "mfa verify: \(reply.text)", sourceLocation: sourceLocation)
        let pair = try reply.decode(TokenPair.self)
        return SignedInOperator(factor: factor, id: pair.user.id.lowercasedText, access: pair.access)
    }

    /// `POST /auth/login` with the right password of an account with a second factor: its
    /// `mfa_required` problem (expects 403).
    public func challenge(_ account: TestAccount, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Problem {
        let reply = try await send("POST", "/auth/login", model: account.loginRequest)
        try #require(reply.status == 403 && reply.problem?.code == .mfaRequired, "login: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try #require(reply.problem, sourceLocation: sourceLocation)
    }

    /// `POST /auth/mfa/verify`.
    public func answer(_ token: String?, code: String? = nil, recoveryCode: String? = nil) async throws -> Reply {
        var body: [String: Any] = [:]
        if let token { body["mfa_token"] = token }
        if let code { body["code"] = code }
        if let recoveryCode { body["recovery_code"] = recoveryCode }
        return try await send("POST", "/auth/mfa/verify", json: body)
    }

    /// `POST /auth/refresh`.
    public func refresh(_ token: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send("POST", "/auth/refresh", model: RefreshRequest(refresh: token), headers: headers)
    }

    /// `GET /auth/me` with `token`.
    public func me(_ token: String) async throws -> Reply {
        try await send("GET", "/auth/me", token: token)
    }
}
