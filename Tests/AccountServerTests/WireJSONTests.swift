import AccountAPI
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// The hand-written JSON must be byte for byte what `JSONCoding.encoder` makes.
@Suite("JSON written by hand")
struct WireJSONTests {
    func user(
        _ name: String, email: String = "mina@example.com", verified: Bool = true, at seconds: TimeInterval = 1_790_000_000,
        mfa: SecondFactorStatus? = SecondFactorStatus(totp: false, recoveryCodesLeft: 0)
    ) -> User {
        User(
            id: UUID(), username: name, email: email, emailVerified: verified, mbti: MBTI.allCases.randomElement()!,
            createdAt: Date(timeIntervalSince1970: seconds), mfa: mfa)
    }

    func expectSame<T: Encodable>(_ written: [UInt8], _ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoded = [UInt8](try JSONCoding.encoder.encode(value))
        #expect(written == encoded, "\(String(decoding: written, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    static let oddStrings: [String] = {
        var strings = (0..<128).map { String(UnicodeScalar(UInt8($0))) }.map { "x\($0)/y\\\"" }
        strings += ["민수", "ÉLODIE", "👩🏽‍💻dev", "e\u{301}", "\u{2028}\u{2029}", "\u{7F}\u{80}\u{FEFF}", "名前_テスト", ""]
        return strings
    }()

    @Test("an account: every ASCII character, Unicode, odd times, both verification states")
    func users() throws {
        for (index, text) in Self.oddStrings.enumerated() {
            let mfa = [nil, SecondFactorStatus(totp: false, recoveryCodesLeft: 0), SecondFactorStatus(totp: true, recoveryCodesLeft: index)][index % 3]
            let value = user(text, email: "a\(text)b@x.test", verified: index % 2 == 0, at: Double(1_600_000_000 + index * 97_531) + 0.75, mfa: mfa)
            try expectSame(WireJSON.user(value), value)
        }
    }

    @Test("a token pair, with odd strings and numbers")
    func tokenPairs() throws {
        for (index, text) in Self.oddStrings.enumerated() {
            let pair = TokenPair(
                access: "a.b.\(text)", refresh: text, tokenType: index % 3 == 0 ? "Bearer" : text,
                expiresIn: index * 37 - 5, refreshExpiresIn: Int.max - index, user: user(text))
            try expectSame(WireJSON.tokenPair(pair), pair)
        }
    }

    @Test("a page of the operators' search: odd strings, odd times, no last login, the last page and an empty one")
    func adminUserPages() throws {
        var rows: [AdminUser] = []
        for (index, text) in Self.oddStrings.enumerated() {
            rows.append(AdminUser(
                id: UUID().lowercasedText, username: text, email: "a\(text)b@x.test", mbti: index % 5 == 0 ? text : "INTJ",
                emailVerified: index % 2 == 0, mfaEnabled: index % 3 == 0, disabled: index % 4 == 0, isAdmin: index % 7 == 0,
                createdAt: Date(timeIntervalSince1970: Double(1_600_000_000 + index * 97_531) + 0.75),
                lastLoginAt: index % 3 == 1 ? nil : Date(timeIntervalSince1970: Double(1_700_000_000 + index * 13) + 0.125)))
        }
        for page in [AdminUserPage(users: rows, next: "MTc5.\(Self.oddStrings[34])"), AdminUserPage(users: Array(rows.prefix(3)), next: nil),
                     AdminUserPage(users: [], next: nil)] {
            try expectSame(WireJSON.adminUserPage(page), page)
        }
    }

    @Test("an access token's header and claims, with and without nbf")
    func tokenParts() throws {
        for (index, text) in Self.oddStrings.enumerated() {
            let header = AccessTokenHeader(alg: "EdDSA", typ: text, kid: "k\(text)")
            try expectSame(WireJSON.header(header), header)
            let amr = [[], ["pwd"], ["pwd", "otp"], [text, "recovery_code"]][index % 4]
            let claims = AccessClaims(
                amr: amr, iss: "https://\(text)", aud: text, sub: UUID().lowercasedText, sid: UUID().lowercasedText,
                iat: 1_790_000_000 + index, exp: -index, nbf: index % 2 == 0 ? nil : index, jti: text)
            try expectSame(WireJSON.claims(claims), claims)
        }
    }

    @Test("the /auth/me reply and a login reply are this writer's output")
    func repliesUseWriter() async throws {
        let harness = try await Harness.make()
        try await harness.registered(.minsu)
        let login = try await harness.send("POST", "/auth/login", json: ["email": "minsu@example.com", "password": "correct horse battery"])
        let pair = try login.decode(TokenPair.self)
        #expect(Array(login.body) == WireJSON.tokenPair(pair))
        let me = try await harness.send("GET", "/auth/me", token: pair.access)
        #expect(Array(me.body) == WireJSON.user(try me.decode(User.self)))
    }
}
