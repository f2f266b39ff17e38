import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An account server in memory, for SwiftUI previews and demos: every endpoint answers at once
/// with sample data (any code is right, any password logs in, a second factor enrols with RFC 6238's
/// test secret), so screens show without a network.
///
/// Not a test double for the real server: it checks nothing the server checks.
struct PreviewServer: Sendable {
    static let user = User(
        id: UUID(uuidString: "5F0B7C2E-3D44-4B5A-9C1E-2A6F8D9B0C11")!, username: "민수", email: "minsu@example.com",
        emailVerified: true, mbti: .enfp, createdAt: Date(timeIntervalSince1970: 1_780_000_000),
        mfa: SecondFactorStatus(totp: false, recoveryCodesLeft: 0), appleLinked: false, hasPassword: true)

    static let passkeys = PasskeyList(passkeys: [
        Passkey(
            id: UUID(uuidString: "3E5D1A20-7C4B-4F9E-8A61-2B0C9D8E7F10")!, name: "iPhone", credentialID: "c2FtcGxlLWNyZWRlbnRpYWw",
            algorithm: -7, backupEligible: true, backedUp: true, transports: ["hybrid", "internal"],
            createdAt: Date(timeIntervalSince1970: 1_780_000_000), lastUsedAt: Date(timeIntervalSince1970: 1_780_090_000)),
        Passkey(
            id: UUID(uuidString: "8F2A6B3C-1D4E-4A5F-9B8C-7D6E5F4A3B2C")!, name: "YubiKey 5", credentialID: "c2FtcGxlLWtleQ",
            algorithm: -8, backupEligible: false, backedUp: false, transports: ["usb"],
            createdAt: Date(timeIntervalSince1970: 1_780_050_000), lastUsedAt: nil),
    ])

    /// RFC 6238's test secret ("12345678901234567890"), so a preview's QR code scans as a real one.
    static let enrollment = TOTPEnrollment(
        secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
        otpauthURI: "otpauth://totp/MBTI%20Playground:%EB%AF%BC%EC%88%98?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=MBTI%20Playground&algorithm=SHA1&digits=6&period=30")

    static let recoveryCodes = RecoveryCodes(recoveryCodes: [
        "k3m9x-2pqrt", "7hd2w-qz8ne", "b4tnv-95cxa", "m2r7k-ejw3s", "zp6q1-h8dgy",
        "c9x4t-v2kbm", "n5w8e-r3qjz", "t1ay6-gk9pd", "w7e2n-m4cxh", "q8z5r-b6tvk",
    ])

    static let sessions = [
        SessionInfo(
            id: UUID(uuidString: "0C3A5E77-1B2D-4E8F-A9C0-7D6B5A4E3F21")!, createdAt: Date(timeIntervalSince1970: 1_780_000_000),
            lastUsedAt: Date(timeIntervalSince1970: 1_780_090_000),
            userAgent: UserAgent(name: "MBTI Playground", version: "1.0", details: ["iPhone15,2", "iOS 17.4", "build 7"]).header,
            current: true, clientAddress: "203.0.113.24"),
        SessionInfo(
            id: UUID(uuidString: "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D")!, createdAt: Date(timeIntervalSince1970: 1_779_000_000),
            lastUsedAt: Date(timeIntervalSince1970: 1_779_500_000),
            userAgent: UserAgent(name: "account", version: "1.0", details: ["minsu-laptop", "Linux 6.1"]).header,
            current: false, clientAddress: "2001:db8:4f1::17"),
    ]

    /// A sign-in, a failed attempt (a warning) and a new password, newest first.
    static let securityEvents = SecurityEventPage(events: [
        SecurityEvent(
            id: "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", at: Date(timeIntervalSince1970: 1_780_090_000),
            type: SecurityEventKind.loginSucceeded.rawValue, clientAddress: "203.0.113.24", deviceName: "iPhone15,2"),
        SecurityEvent(
            id: "6a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d", at: Date(timeIntervalSince1970: 1_780_080_000),
            type: SecurityEventKind.loginFailed.rawValue, clientAddress: "198.51.100.7", deviceName: nil),
        SecurityEvent(
            id: "7b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e", at: Date(timeIntervalSince1970: 1_779_900_000),
            type: SecurityEventKind.passwordChanged.rawValue, clientAddress: "2001:db8:4f1::17", deviceName: "minsu-laptop"),
    ], next: nil)

    static var pair: TokenPair {
        TokenPair(access: "preview.access.token", refresh: "preview-refresh", expiresIn: 900, refreshExpiresIn: 30 * 86_400, user: user)
    }

    static let policy = Policy(
        username: .init(minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength, allowedSymbols: UsernameRule.allowedSymbols),
        email: .init(maxLength: EmailRule.maxLength),
        password: .init(minLength: PasswordRule.minLength, maxLength: PasswordRule.maxLength, refusesCommon: true, refusesSimilar: true),
        mbtiTypes: MBTI.allCases, code: .init(length: CodeRule.length, lifetime: 600, resendCooldown: 60, maxAttempts: 5),
        emailVerificationRequired: true, accessTokenLifetime: 900, sessionIdleLifetime: 30 * 86_400,
        sessionMaxLifetime: 90 * 86_400)

    /// The reply to `request`.
    static func answer(_ request: URLRequest) throws -> (Data, URLResponse) {
        let url = request.url ?? URL(string: "http://preview.invalid")!
        let body = request.httpBody ?? Data()
        let (status, reply): (Int, (any Encodable)?) =
            switch (request.httpMethod ?? "GET", url.path) {
            case ("GET", "/auth/policy"): (200, policy)
            case ("POST", "/auth/email/code"): (202, EmailCodeSent(email: try read(EmailCodeRequest.self, body).email ?? "", expiresIn: 600))
            case ("POST", "/auth/email/verify"):
                try verify(read(EmailVerifyRequest.self, body))
            case ("POST", "/auth/signup"): try signUp(read(SignUpRequest.self, body))
            case ("POST", "/auth/login"), ("POST", "/auth/refresh"): (200, pair)
            case ("GET", "/auth/me"): (200, user)
            case ("PATCH", "/auth/me"): (200, updated(try read(UpdateProfileRequest.self, body)))
            case ("GET", "/auth/sessions"): (200, SessionList(sessions: sessions))
            case ("GET", "/auth/security-events"): (200, securityEvents)
            case ("GET", "/auth/passkeys"): (200, passkeys)
            case ("POST", "/auth/password/reset"): (202, nil)
            case ("POST", "/auth/mfa/totp"): (200, enrollment)
            case ("POST", "/auth/mfa/totp/confirm"), ("POST", "/auth/mfa/recovery-codes"): (200, recoveryCodes)
            case ("POST", "/auth/mfa/verify"): (200, pair)
            default: (204, nil)
            }
        let data = try reply.map { try AccountJSON.makeEncoder().encode($0) } ?? Data()
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        return (data, response)
    }

    private static func signUp(_ request: SignUpRequest) -> (Int, (any Encodable)?) {
        let email = request.email ?? ""
        guard request.emailVerificationToken != nil else { return (202, SignUpAccepted(email: email, expiresIn: 600, signUpToken: "preview-signup-token")) }
        let created = User(
            id: UUID(), username: request.username ?? "", email: email, emailVerified: true,
            mbti: request.mbti.flatMap(MBTI.init(parsing:)) ?? .enfp, createdAt: Date())
        return (201, TokenPair(access: pair.access, refresh: pair.refresh, expiresIn: 900, refreshExpiresIn: 30 * 86_400, user: created))
    }

    private static func verify(_ request: EmailVerifyRequest) -> (Int, (any Encodable)?) {
        let session = request.signIn == true ? pair : nil
        return (200, EmailVerified(email: request.email ?? "", emailVerificationToken: "preview-token", session: session))
    }

    private static func updated(_ changes: UpdateProfileRequest) -> User {
        User(
            id: user.id, username: changes.username ?? user.username, email: user.email, emailVerified: true,
            mbti: changes.mbti.flatMap(MBTI.init(parsing:)) ?? user.mbti, createdAt: user.createdAt, mfa: user.mfa,
            appleLinked: user.appleLinked, hasPassword: user.hasPassword)
    }

    private static func read<T: Decodable>(_ type: T.Type, _ body: Data) throws -> T {
        try AccountJSON.makeDecoder().decode(T.self, from: body)
    }
}

extension AccountClient {
    /// A client whose server is in memory: every call answers at once with sample data (any code
    /// is right, any password logs in). For SwiftUI previews and demos, never for an app's users.
    public static func preview(language: Language = .en) -> AccountClient {
        AccountClient(
            baseURL: URL(string: "http://preview.invalid")!, language: language, userAgent: "AccountKit preview",
            transport: { request in try PreviewServer.answer(request) })
    }
}

extension SessionManager {
    /// A session over ``AccountClient/preview(language:)`` kept in memory, signed in as a sample
    /// user when `signedIn` (once ``restore()`` reads it), else signed out.
    public static func preview(signedIn: Bool = false, language: Language = .en) -> SessionManager {
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: .preview(language: language), store: store)
        if signedIn, let data = try? StoredSession.encoder.encode(StoredSession(pair: PreviewServer.pair, receivedAt: Date())) {
            try? store.store(key: manager.credentialKey, value: data)
        }
        return manager
    }

    /// The sample user a signed-in preview session holds.
    public static var previewUser: User { PreviewServer.user }

    /// A sample Sign in with Apple waiting for its nickname (a private relay address), for previews.
    public static var previewAppleSignUp: AppleSignUp {
        AppleSignUp(continuationToken: "preview-continuation", email: "x7k2m9@privaterelay.appleid.com", receivedAt: Date(), expiresIn: 600)
    }
}
