import AccountAPI
import Foundation
import Testing

/// Fixed JSON samples of the wire models: a renamed or retyped field fails here loudly.
@Suite("Wire format backwards compatibility")
struct BackwardsCompatibilityTests {
    /// 2026-11-30T04:46:45Z.
    static let createdAt = Date(timeIntervalSince1970: 1_796_014_005)

    static let user = User(
        id: UUID(uuidString: "3F1C8E2A-5B7D-4C9E-8A1F-2D3E4F5A6B7C")!, username: "김민수",
        email: "mina@example.com", emailVerified: true, mbti: .enfp, createdAt: createdAt)

    static let userJSON =
        #"{"created_at":"2026-11-30T04:46:45Z","email":"mina@example.com","email_verified":true,"id":"3f1c8e2a-5b7d-4c9e-8a1f-2d3e4f5a6b7c","mbti":"ENFP","username":"김민수"}"#

    /// Decodes `json` into `expected`'s type, checks it equals `expected`, and re-encodes it to `json`.
    func roundTrip<T: Codable & Equatable>(_ json: String, _ expected: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let decoded = try AccountJSON.makeDecoder().decode(T.self, from: Data(json.utf8))
        #expect(decoded == expected, sourceLocation: sourceLocation)
        let encoded = String(decoding: try AccountJSON.makeEncoder().encode(decoded), as: UTF8.self)
        #expect(encoded == json, sourceLocation: sourceLocation)
    }

    @Test func dates_are_rfc3339_utc_whole_seconds() {
        #expect(RFC3339.string(from: Self.createdAt) == "2026-11-30T04:46:45Z")
        #expect(RFC3339.date(from: "2026-11-30T04:46:45Z") == Self.createdAt)
        #expect(RFC3339.date(from: "2026-11-30T04:46:45.000Z") == Self.createdAt)
    }

    @Test func user() throws {
        try roundTrip(Self.userJSON, Self.user)
    }

    @Test func user_id_encodes_lower_case_and_mbti_upper_case() throws {
        let loose = #"{"created_at":"2026-11-30T04:46:45Z","email":"mina@example.com","email_verified":true,"id":"3F1C8E2A-5B7D-4C9E-8A1F-2D3E4F5A6B7C","mbti":"enfp","username":"김민수"}"#
        let decoded = try AccountJSON.makeDecoder().decode(User.self, from: Data(loose.utf8))
        #expect(decoded == Self.user)
        let encoded = String(decoding: try AccountJSON.makeEncoder().encode(decoded), as: UTF8.self)
        #expect(encoded == Self.userJSON)
    }

    @Test func mbti_decodes_any_case_and_refuses_others() throws {
        let decoder = AccountJSON.makeDecoder()
        #expect(try decoder.decode([MBTI].self, from: Data(#"["enfp","Istj"]"#.utf8)) == [.enfp, .istj])
        #expect(throws: DecodingError.self) { try decoder.decode([MBTI].self, from: Data(#"["ABCD"]"#.utf8)) }
        let encoded = String(decoding: try AccountJSON.makeEncoder().encode([MBTI.enfp]), as: UTF8.self)
        #expect(encoded == #"["ENFP"]"#)
    }

    @Test func token_pair() throws {
        let json = #"{"access":"eyJhbGciOiJFZERTQSJ9.e30.sig","expires_in":900,"refresh":"r_abc123","refresh_expires_in":2592000,"token_type":"Bearer","user":\#(Self.userJSON)}"#
        try roundTrip(
            json,
            TokenPair(access: "eyJhbGciOiJFZERTQSJ9.e30.sig", refresh: "r_abc123", expiresIn: 900,
                      refreshExpiresIn: 2_592_000, user: Self.user))
    }

    @Test func sign_up_accepted() throws {
        try roundTrip(
            #"{"email":"mina@example.com","expires_in":600,"verification":"code_sent"}"#,
            SignUpAccepted(email: "mina@example.com", expiresIn: 600))
    }

    @Test func email_verified() throws {
        try roundTrip(
            #"{"email":"mina@example.com","email_verification_token":"evt_123","verified":true}"#,
            EmailVerified(email: "mina@example.com", emailVerificationToken: "evt_123"))
    }

    @Test func problem_with_errors() throws {
        let json = #"{"code":"validation_failed","detail":"Some fields are invalid.","errors":{"password":[{"code":"too_short","message":"Use at least 8 characters."},{"code":"too_common","message":"Too common."}]},"status":422,"title":"Validation failed","type":"about:blank"}"#
        try roundTrip(
            json,
            Problem(
                title: "Validation failed", status: 422, code: .validationFailed, detail: "Some fields are invalid.",
                errors: ["password": [
                    FieldError(code: .tooShort, message: "Use at least 8 characters."),
                    FieldError(code: .tooCommon, message: "Too common."),
                ]]))
    }

    @Test func problem_without_detail_or_errors() throws {
        try roundTrip(
            #"{"code":"not_found","status":404,"title":"Not found","type":"about:blank"}"#,
            Problem(title: "Not found", status: 404, code: .notFound))
    }

    @Test func unknown_codes_decode_and_survive() throws {
        let json = #"{"code":"brand_new","errors":{"username":[{"code":"brand_new_field","message":"New."}]},"status":418,"title":"New","type":"about:blank"}"#
        let problem = try AccountJSON.makeDecoder().decode(Problem.self, from: Data(json.utf8))
        #expect(problem.code == ErrorCode("brand_new"))
        #expect(problem.code != .internalError)
        #expect(problem.errors?["username"]?.first?.code == FieldErrorCode("brand_new_field"))
        let encoded = String(decoding: try AccountJSON.makeEncoder().encode(problem), as: UTF8.self)
        #expect(encoded == json)
    }

    @Test func policy() throws {
        let types = MBTI.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        let json = #"{"access_token_lifetime":900,"code":{"length":6,"lifetime":600,"max_attempts":5,"resend_cooldown":60},"email":{"max_length":254},"email_verification_required":true,"mbti_types":[\#(types)],"password":{"max_length":128,"min_length":8,"refuses_common":true,"refuses_similar":true},"session_idle_lifetime":2592000,"session_max_lifetime":7776000,"username":{"allowed_symbols":["_","."],"max_length":20,"min_length":2}}"#
        try roundTrip(
            json,
            Policy(
                username: .init(
                    minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength,
                    allowedSymbols: UsernameRule.allowedSymbols),
                email: .init(maxLength: EmailRule.maxLength),
                password: .init(
                    minLength: PasswordRule.minLength, maxLength: PasswordRule.maxLength, refusesCommon: true,
                    refusesSimilar: true),
                mbtiTypes: MBTI.allCases,
                code: .init(length: CodeRule.length, lifetime: 600, resendCooldown: 60, maxAttempts: 5),
                emailVerificationRequired: true, accessTokenLifetime: 900, sessionIdleLifetime: 2_592_000,
                sessionMaxLifetime: 7_776_000))
    }

    @Test func email_verified_with_a_session() throws {
        let pairJSON = #"{"access":"a.b.c","expires_in":900,"refresh":"r_1","refresh_expires_in":2592000,"token_type":"Bearer","user":\#(Self.userJSON)}"#
        try roundTrip(
            #"{"email":"mina@example.com","email_verification_token":"evt_123","session":\#(pairJSON),"verified":true}"#,
            EmailVerified(
                email: "mina@example.com", emailVerificationToken: "evt_123",
                session: TokenPair(access: "a.b.c", refresh: "r_1", expiresIn: 900, refreshExpiresIn: 2_592_000, user: Self.user)))
    }

    @Test func email_verify_request_sends_sign_in_only_when_asked() throws {
        let encoder = AccountJSON.makeEncoder()
        let plain = String(decoding: try encoder.encode(EmailVerifyRequest(email: "mina@example.com", code: "123456")), as: UTF8.self)
        #expect(plain == #"{"code":"123456","email":"mina@example.com"}"#, "the original app's request, byte for byte")
        let signIn = String(decoding: try encoder.encode(EmailVerifyRequest(email: "mina@example.com", code: "123456", signIn: true)), as: UTF8.self)
        #expect(signIn == #"{"code":"123456","email":"mina@example.com","sign_in":true}"#)
    }
}
