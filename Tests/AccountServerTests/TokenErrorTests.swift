import AccountAPI
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// The token layer says which check refused a token; the API still answers only `token_invalid`
/// or `token_expired`.
@Suite("Token errors with their reason")
struct TokenErrorTests {
    func verify(_ signed: StrictTokenTests.Signed, _ token: String) async -> TokenError? {
        do {
            _ = try await signed.harness.app.services.tokens.verify(token, now: signed.harness.clock.now)
            return nil
        } catch {
            return error as? TokenError
        }
    }

    @Test("each check names itself")
    func reasons() async throws {
        let signed = try await StrictTokenTests.signed()
        let header = #"{"alg":"EdDSA","kid":"\#(signed.kid)","typ":"at+jwt"}"#
        let claims = signed.claimsText
        func replacing(_ text: String, _ old: String, _ new: String) -> String { text.replacingOccurrences(of: old, with: new) }
        var badSignature = Array(signed.parts[2])
        badSignature[20] = badSignature[20] == "A" ? "B" : "A"
        let cases: [(String, TokenError)] = [
            (String(repeating: "a", count: 4097), .malformed(.tooLong)),
            (signed.parts[0] + "." + signed.parts[1], .malformed(.parts)),
            (signed.parts[0] + "=." + signed.parts[1] + "." + signed.parts[2], .malformed(.encoding)),
            (signed.parts[0] + "." + signed.parts[1] + "." + Base64URL.encode([UInt8](repeating: 1, count: 63)), .malformed(.signatureLength)),
            (signed.sign(header: #"{"alg":"EdDSA","alg":"EdDSA","kid":"\#(signed.kid)","typ":"at+jwt"}"#, claims: claims), .malformed(.json)),
            (signed.sign(header: replacing(header, "}", #","jku":"https://evil.example"}"#), claims: claims), .malformed(.headerParameter)),
            (signed.sign(header: #"{"alg":"EdDSA","kid":7,"typ":"at+jwt"}"#, claims: claims), .malformed(.header)),
            (signed.sign(header: replacing(header, "EdDSA", "HS256"), claims: claims), .malformed(.algorithm)),
            (signed.sign(header: replacing(header, "at+jwt", "JWT"), claims: claims), .malformed(.type)),
            (signed.sign(header: replacing(header, signed.kid, "no-such-key"), claims: claims), .unknownKey),
            (signed.parts[0] + "." + signed.parts[1] + "." + String(badSignature), .badSignature),
            (signed.sign(header: header, claims: #"{"sub":5}"#), .malformed(.claims)),
            (signed.sign(header: header, claims: replacing(claims, #""iss":""#, #""iss":"x"#)), .invalidClaim("iss", "not this server's issuer")),
            (signed.sign(header: header, claims: replacing(claims, #""aud":""#, #""aud":"x"#)), .invalidClaim("aud", "not this server's audience")),
            (signed.sign(header: header, claims: replacing(claims, #""sid":""#, #""sid":"x"#)), .invalidClaim("sid", "missing or not a UUID")),
        ]
        for (token, expected) in cases {
            #expect(await verify(signed, token) == expected, "\(expected)")
            #expect(!expected.description.contains(signed.parts[2]), "a reason never holds the token")
        }
        signed.harness.clock.advance(900 + TokenService.clockSkew + 1)
        #expect(await verify(signed, signed.token) == .expired)
    }

    @Test("the HTTP layer maps them in one place: expired is token_expired, the rest token_invalid")
    func mapping() {
        #expect(APIError(TokenError.expired).code == .tokenExpired)
        for error: TokenError in [.malformed(.parts), .unknownKey, .badSignature, .invalidClaim("iss", "x")] {
            let reply = APIError(error)
            #expect(reply.code == .tokenInvalid)
            #expect(reply.status == 401)
            #expect(reply.detail == nil, "the reason stays out of the body")
        }
    }
}
