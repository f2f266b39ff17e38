import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request and returns the reply; `URLSession` by default, anything in tests.
public typealias HTTPTransport = @Sendable (URLRequest) async throws -> (Data, URLResponse)

/// The account API as `async throws` calls: one method per endpoint, typed requests and replies.
///
/// Stateless: it keeps no tokens (``SessionManager`` does, and is what an app usually calls).
/// Every failure is an ``AccountError``.
///
/// ```swift
/// let client = AccountClient(baseURL: URL(string: "https://accounts.example.com")!)
/// let pair = try await client.logIn(.identifier("민수", password: "correct horse battery"))
/// let me = try await client.me(accessToken: pair.access)
/// ```
public struct AccountClient: Sendable {
    /// The server: every path is resolved against it (`https://accounts.example.com`).
    public let baseURL: URL
    /// The `Accept-Language` sent with every request (server texts come back in it).
    public let language: Language
    /// Sent as `User-Agent`, so the sessions list can name the device.
    public let userAgent: String
    /// Headers sent with every request besides the SDK's own (which win on a clash:
    /// `Authorization`, `Accept`, `Accept-Language`, `Content-Type`, `User-Agent`).
    public let additionalHeaders: [String: String]
    /// Seconds a request may wait for its reply before it fails with ``AccountError/transport(_:)``
    /// (`URLError.timedOut`).
    public let timeout: TimeInterval
    /// Hears every request as it ends (``RequestLog``: method, path, status, problem code, time),
    /// never a token, password, body or header value.
    public let logger: (@Sendable (RequestLog) -> Void)?
    private let transport: HTTPTransport

    /// - Parameters:
    ///   - baseURL: the server. There is no default: an app that forgot it would talk to
    ///     `localhost` in its release build (during development, `http://localhost:8000` is what
    ///     `make run` serves).
    ///   - language: texts of errors; the app's own language by default (``preferredLanguage()``).
    ///   - userAgent: names this app and device in the account's sessions list
    ///     (``defaultUserAgent(bundle:)`` by default).
    ///   - additionalHeaders: sent with every request (an API gateway's key, a tracing header);
    ///     the SDK's own headers win on a clash.
    ///   - timeout: seconds to wait for a reply (30 by default).
    ///   - logger: hears every request as it ends (``RequestLog``), for the app's own logs.
    ///   - transport: how requests are sent; an ephemeral `URLSession` (nothing cached on disk) by default.
    public init(
        baseURL: URL, language: Language = AccountClient.preferredLanguage(),
        userAgent: String = AccountClient.defaultUserAgent(), additionalHeaders: [String: String] = [:],
        timeout: TimeInterval = 30, logger: (@Sendable (RequestLog) -> Void)? = nil, transport: HTTPTransport? = nil
    ) {
        self.baseURL = baseURL
        self.language = language
        self.userAgent = userAgent
        self.additionalHeaders = additionalHeaders
        self.timeout = timeout
        self.logger = logger
        self.transport = transport ?? { request in try await AccountClient.ephemeralSession.data(for: request) }
    }

    // MARK: Sign-up and email

    /// What a sign-up came to.
    public enum SignUpOutcome: Sendable, Hashable {
        /// The sign-up waits for the mailed code, which makes the account (details-first flow);
        /// the reply says how long the code lives.
        case codeSent(SignUpAccepted)
        /// The account was created verified and signed in (email-first flow, with a token).
        case signedIn(TokenPair)
    }

    /// `POST /auth/signup`: without a verification token a code is mailed (``SignUpOutcome/codeSent(_:)``);
    /// with one the account is made verified and signed in (``SignUpOutcome/signedIn(_:)``; keep
    /// the pair: ``SessionManager/signUp(_:)`` does).
    public func signUp(_ request: SignUpRequest) async throws -> SignUpOutcome {
        let (status, data) = try await send(.signUp, body: request)
        if status == 201 { return .signedIn(try decode(TokenPair.self, data, status)) }
        return .codeSent(try decode(SignUpAccepted.self, data, status))
    }

    /// `POST /auth/email/code`: mails a code.
    public func requestEmailCode(_ request: EmailCodeRequest) async throws -> EmailCodeSent {
        try await call(.requestEmailCode, body: request)
    }

    /// `POST /auth/email/verify`: checks a code; returns the email verification token, and with
    /// ``EmailVerifyRequest/signIn`` the new account's session when the code completed a
    /// details-first sign-up in time (keep it: ``SessionManager/verifyEmail(_:code:signUpToken:)`` does).
    public func verifyEmail(_ request: EmailVerifyRequest) async throws -> EmailVerified {
        try await call(.verifyEmail, body: request)
    }

    // MARK: Sessions

    /// `POST /auth/login`: a new session's token pair.
    ///
    /// For an account with a second factor, a right password throws
    /// ``AccountError/secondFactorRequired(_:)`` with the challenge that
    /// ``verifySecondFactor(_:)`` answers.
    public func logIn(_ request: LoginRequest) async throws -> TokenPair {
        try await call(.logIn, body: request)
    }

    /// `POST /auth/refresh`: trades a refresh token for a new pair.
    public func refresh(_ refreshToken: String) async throws -> TokenPair {
        try await call(.refresh, body: RefreshRequest(refresh: refreshToken))
    }

    /// `POST /auth/logout?scope=…`: ends this session (`.local`), the account's others, or all.
    public func logOut(scope: LogoutScope = .local, accessToken: String) async throws {
        _ = try await send(.logOut, query: ["scope": scope.rawValue], accessToken: accessToken)
    }

    // MARK: Profile

    /// `GET /auth/me`: the signed-in account.
    public func me(accessToken: String) async throws -> User {
        try await call(.getMe, accessToken: accessToken)
    }

    /// `PATCH /auth/me`: changes the nickname and/or MBTI type; returns the account as it is now.
    public func updateProfile(_ request: UpdateProfileRequest, accessToken: String) async throws -> User {
        try await call(.updateMe, body: request, accessToken: accessToken)
    }

    /// `GET /auth/policy`: the rules and limits in force.
    public func policy() async throws -> Policy {
        try await call(.getPolicy)
    }

    /// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
    public func keys() async throws -> JWKSet {
        try await call(.getKeys)
    }

    // MARK: Account lifecycle

    /// `GET /auth/sessions`: the account's live sessions, newest first.
    public func sessions(accessToken: String) async throws -> [SessionInfo] {
        let list: SessionList = try await call(.listSessions, accessToken: accessToken)
        return list.sessions
    }

    /// `DELETE /auth/sessions/{id}`: ends one of the account's sessions.
    public func revokeSession(id: UUID, accessToken: String) async throws {
        _ = try await send(.revokeSession, id: id.uuidString.lowercased(), accessToken: accessToken)
    }

    /// `POST /auth/password/change`: a new password with the step-up proof (``StepUpProof``, the
    /// current password as `current_password`); every other session is revoked.
    ///
    /// A wrong current password throws ``AccountError/invalidCredentials`` (the token stays good);
    /// after repeated failures, here or at login, ``AccountError/rateLimited(retryAfter:)``; a proof
    /// short of what the account needs, ``AccountError/proofRequired(_:)``.
    public func changePassword(_ request: ChangePasswordRequest, accessToken: String) async throws {
        _ = try await send(.changePassword, body: request, accessToken: accessToken, stepUp: true)
    }

    /// `POST /auth/password/reset`: mails a reset code (the same reply whatever the address).
    public func requestPasswordReset(_ request: PasswordResetRequest) async throws {
        _ = try await send(.requestPasswordReset, body: request)
    }

    /// `POST /auth/password/reset/confirm`: sets a new password with the code; every session ends.
    public func confirmPasswordReset(_ request: PasswordResetConfirmRequest) async throws {
        _ = try await send(.confirmPasswordReset, body: request)
    }

    /// `DELETE /auth/me`: removes the account, its sessions and codes, with the step-up proof.
    ///
    /// A wrong password throws ``AccountError/invalidCredentials`` (the token stays good); after
    /// repeated failures, here or at login, ``AccountError/rateLimited(retryAfter:)``; a proof
    /// short of what the account needs, ``AccountError/proofRequired(_:)``.
    public func deleteAccount(_ request: DeleteAccountRequest, accessToken: String) async throws {
        _ = try await send(.deleteMe, body: request, accessToken: accessToken, stepUp: true)
    }

    // MARK: Plumbing

    func call<Reply: Decodable>(
        _ endpoint: Endpoint, id: String? = nil, body: (any Encodable)? = nil, accessToken: String? = nil, stepUp: Bool = false
    ) async throws -> Reply {
        let (status, data) = try await send(endpoint, id: id, body: body, accessToken: accessToken, stepUp: stepUp)
        return try decode(Reply.self, data, status)
    }

    /// Sends a request to `endpoint` (its `{id}` filled with `id`); returns status and body of a
    /// 2xx reply, throws ``AccountError`` otherwise (for a change that carries a step-up proof,
    /// `stepUp`, as ``AccountError/asStepUpRefusal``).
    func send(
        _ endpoint: Endpoint, id: String? = nil, query: [String: String] = [:], body: (any Encodable)? = nil,
        accessToken: String? = nil, stepUp: Bool = false
    ) async throws -> (Int, Data) {
        let (method, path) = (endpoint.method.rawValue, id.map { endpoint.path(id: $0) } ?? endpoint.path)
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        ClientLanguage.use(language)
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in additionalHeaders { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(language.rawValue, forHTTPHeaderField: "Accept-Language")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try Self.encoder.encode(body)
        }
        let started = ContinuousClock.now
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await transport(request)
        } catch {
            let failure: AccountError =
                switch error {
                case let error as URLError: .transport(error)
                case let error as AccountError: error
                // A cancelled task is a cancelled request, as URLSession reports it.
                case is CancellationError: .transport(URLError(.cancelled))
                default: .transport(URLError(.unknown))
                }
            log(method, path, status: nil, problem: nil, failure: failure, since: started)
            throw failure
        }
        guard let http = response as? HTTPURLResponse else {
            log(method, path, status: nil, problem: nil, failure: .undecodableReply(status: 0), since: started)
            throw AccountError.undecodableReply(status: 0)
        }
        guard (200..<300).contains(http.statusCode) else {
            let problem = try? Self.decoder.decode(Problem.self, from: data)
            log(method, path, status: http.statusCode, problem: problem?.code, failure: nil, since: started)
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { Int($0) }
            let error = AccountError(status: http.statusCode, problem: problem, retryAfter: retryAfter)
            throw stepUp ? error.asStepUpRefusal : error
        }
        log(method, path, status: http.statusCode, problem: nil, failure: nil, since: started)
        return (http.statusCode, data)
    }

    private func log(_ method: String, _ path: String, status: Int?, problem: ErrorCode?, failure: AccountError?, since started: ContinuousClock.Instant) {
        guard let logger else { return }
        var transportFailure: URLError.Code?
        if case .transport(let error) = failure { transportFailure = error.code }
        logger(RequestLog(
            method: method, path: path, status: status, problemCode: problem, transportFailure: transportFailure,
            duration: ContinuousClock.now - started))
    }

    private func decode<Reply: Decodable>(_ type: Reply.Type, _ data: Data, _ status: Int) throws -> Reply {
        do {
            return try Self.decoder.decode(Reply.self, from: data)
        } catch {
            throw AccountError.undecodableReply(status: status)
        }
    }

    static let encoder = AccountJSON.makeEncoder()
    static let decoder = AccountJSON.makeDecoder()
}
