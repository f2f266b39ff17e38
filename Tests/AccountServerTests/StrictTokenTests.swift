import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Access tokens are parsed strictly (RFC 7515, RFC 8725): one encoding per token, no header
/// parameter but ours, no JSON member named twice. Each case is signed with the server's own key,
/// so the signature is right and only strictness can refuse it.
@Suite("Strict JWS parsing")
struct StrictTokenTests {
    /// A harness with a signed-in user, its token, and the server's signing key.
    struct Signed {
        let harness: Harness
        let token: String
        let kid: String
        let key: Ed25519SigningKey

        var parts: [String] { token.split(separator: ".").map(String.init) }
        var header: [UInt8] { Base64URL.decode(parts[0])! }
        var claims: [UInt8] { Base64URL.decode(parts[1])! }
        var claimsText: String { String(decoding: claims, as: UTF8.self) }

        /// A token over exactly these encoded parts, signed with the server's key.
        func sign(encodedHeader: String, encodedClaims: String) -> String {
            let input = encodedHeader + "." + encodedClaims
            return input + "." + Base64URL.encode(key.sign(Array(input.utf8)))
        }

        /// A token of this header and claims JSON text, signed with the server's key.
        func sign(header: String, claims: String) -> String {
            sign(encodedHeader: Base64URL.encode(Array(header.utf8)), encodedClaims: Base64URL.encode(Array(claims.utf8)))
        }

        func me(_ token: String) async throws -> Reply { try await harness.send("GET", "/auth/me", token: token) }
    }

    static func signed() async throws -> Signed {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        let record = try #require(try await harness.store.read { try $0.signingKeys() }.last)
        return Signed(harness: harness, token: login.access, kid: record.kid, key: try Ed25519SigningKey(seed: record.seed))
    }

    func expectRefused(_ signed: Signed, _ token: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reply = try await signed.me(token)
        #expect(reply.status == 401, comment, sourceLocation: sourceLocation)
        #expect(reply.code == "token_invalid", comment, sourceLocation: sourceLocation)
        #expect(reply.header("WWW-Authenticate") == "Bearer error=\"invalid_token\"", comment, sourceLocation: sourceLocation)
    }

    @Test("the helper's own token and a re-signed copy of it are accepted (so refusals below are strictness)")
    func controls() async throws {
        let signed = try await Self.signed()
        #expect(try await signed.me(signed.token).status == 200)
        let copy = signed.sign(encodedHeader: signed.parts[0], encodedClaims: signed.parts[1])
        #expect(copy == signed.token, "Ed25519 is deterministic")
        let reordered = signed.sign(header: "{\"kid\":\"\(signed.kid)\",\"typ\":\"at+jwt\",\"alg\":\"EdDSA\"}", claims: signed.claimsText)
        #expect(try await signed.me(reordered).status == 200)
    }

    @Test("= padding on any part is refused, signed or not")
    func padding() async throws {
        let signed = try await Self.signed()
        let parts = signed.parts
        for pad in ["=", "==", "==="] {
            try await expectRefused(signed, signed.token + pad, "signature + \(pad)")
            try await expectRefused(signed, signed.sign(encodedHeader: parts[0] + pad, encodedClaims: parts[1]), "header + \(pad)")
            try await expectRefused(signed, signed.sign(encodedHeader: parts[0], encodedClaims: parts[1] + pad), "claims + \(pad)")
        }
    }

    @Test("a last character with non-zero unused bits is refused")
    func trailingBits() async throws {
        let signed = try await Self.signed()
        let parts = signed.parts
        // 64 signature bytes leave 4 unused bits in the last of 86 characters; set some.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        func withUnusedBits(_ part: String, _ bits: Int) -> String {
            let last = alphabet.firstIndex(of: part.last!)!
            return String(part.dropLast()) + String(alphabet[last | bits])
        }
        for bits in 1...3 {
            try await expectRefused(signed, parts[0] + "." + parts[1] + "." + withUnusedBits(parts[2], bits), "signature bits \(bits)")
        }
        // Header and claims whose length leaves unused bits, re-signed.
        for extra in ["", " ", "  "] {
            let header = "{\"alg\":\"EdDSA\",\"typ\":\"at+jwt\",\"kid\":\"\(signed.kid)\"}" + extra
            let encoded = Base64URL.encode(Array(header.utf8))
            guard header.utf8.count % 3 != 0 else { continue }
            #expect(try await signed.me(signed.sign(encodedHeader: encoded, encodedClaims: parts[1])).status == 200)
            try await expectRefused(signed, signed.sign(encodedHeader: withUnusedBits(encoded, 1), encodedClaims: parts[1]), "header bits")
        }
    }

    @Test("any character outside the base64url alphabet is refused")
    func foreignCharacters() async throws {
        let signed = try await Self.signed()
        let parts = signed.parts
        for (index, bad) in ["+", "/", " ", "%2D", "\u{00e9}", "\t"].enumerated() {
            let position = 10 + index
            var signature = Array(parts[2])
            signature.insert(contentsOf: Array(bad), at: position)
            try await expectRefused(signed, parts[0] + "." + parts[1] + "." + String(signature), "\(bad.debugDescription)")
        }
    }

    @Test("crit naming anything, an empty crit, and header parameters we do not use are refused")
    func headerParameters() async throws {
        let signed = try await Self.signed()
        let base = "\"alg\":\"EdDSA\",\"typ\":\"at+jwt\",\"kid\":\"\(signed.kid)\""
        for extra in [
            "\"crit\":[\"exp\"]", "\"crit\":[\"b64\"],\"b64\":false", "\"crit\":[]", "\"crit\":null",
            "\"jku\":\"https://evil.example/jwks.json\"", "\"x5u\":\"https://evil.example/cert\"", "\"cty\":\"JWT\"",
            "\"jwk\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"AAAA\"}", "\"zip\":\"DEF\"", "\"ALG\":\"none\"",
        ] {
            try await expectRefused(signed, signed.sign(header: "{\(base),\(extra)}", claims: signed.claimsText), "\(extra)")
        }
    }

    @Test("a header or claims member named twice is refused, whichever copy a decoder would keep")
    func duplicateNames() async throws {
        let signed = try await Self.signed()
        let kid = signed.kid
        let headers = [
            "{\"alg\":\"none\",\"alg\":\"EdDSA\",\"typ\":\"at+jwt\",\"kid\":\"\(kid)\"}",
            "{\"alg\":\"EdDSA\",\"alg\":\"none\",\"typ\":\"at+jwt\",\"kid\":\"\(kid)\"}",
            "{\"alg\":\"EdDSA\",\"typ\":\"at+jwt\",\"kid\":\"\(kid)\",\"kid\":\"\(kid)\"}",
            "{\"alg\":\"EdDSA\",\"\\u0061lg\":\"EdDSA\",\"typ\":\"at+jwt\",\"kid\":\"\(kid)\"}",
            "{\"alg\":\"EdDSA\",\"typ\":\"at+jwt\",\"t\\u0079p\":\"at+jwt\",\"kid\":\"\(kid)\"}",
        ]
        for header in headers {
            try await expectRefused(signed, signed.sign(header: header, claims: signed.claimsText), "\(header)")
        }
        let header = String(decoding: signed.header, as: UTF8.self)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(signed.claims)) as? [String: Any])
        let sub = try #require(claims["sub"] as? String)
        let other = UUID().uuidString.lowercased()
        let body = signed.claimsText.dropFirst()  // everything after "{"
        for prefix in ["\"sub\":\"\(other)\",", "\"s\\u0075b\":\"\(other)\",", "\"sub\":\"\(sub)\","] {
            try await expectRefused(signed, signed.sign(header: header, claims: "{" + prefix + body), "claims \(prefix)")
        }
        let appended = String(signed.claimsText.dropLast()) + ",\"sub\":\"\(other)\"}"
        try await expectRefused(signed, signed.sign(header: header, claims: appended), "claims appended sub")
        // A duplicate deeper down counts too.
        let nested = String(signed.claimsText.dropLast()) + ",\"x\":{\"a\":1,\"a\":2}}"
        try await expectRefused(signed, signed.sign(header: header, claims: nested), "nested duplicate")
        let distinct = String(signed.claimsText.dropLast()) + ",\"x\":{\"a\":1,\"b\":[{\"a\":2}]}}"
        #expect(try await signed.me(signed.sign(header: header, claims: distinct)).status == 200, "names may repeat in different objects")
    }

    @Test("a padded or altered variant of a token verified before is not accepted through the cache")
    func cacheKeysExactBytes() async throws {
        let signed = try await Self.signed()
        let app = signed.harness.app
        #expect(try await signed.me(signed.token).status == 200)
        #expect(app.services.tokens.alreadyVerified(signed.token, now: signed.harness.clock.now) != nil)
        for variant in [signed.token + "=", signed.token + "==", "\(signed.token).", "\(signed.token)\u{0}"] {
            #expect(app.services.tokens.alreadyVerified(variant, now: signed.harness.clock.now) == nil)
            let request = HTTPRequest(method: "GET", path: "/auth/me", query: [:], headers: ["Authorization": "Bearer \(variant)"], body: [])
            #expect(app.answeredAtOnce(request) == nil, "it waits for the signature check")
            try await expectRefused(signed, variant, "\(variant.suffix(2))")
            #expect(app.services.tokens.alreadyVerified(variant, now: signed.harness.clock.now) == nil, "and was not cached")
        }
    }
}

@Suite("JOSE JSON checks")
struct JOSEJSONTests {
    func names(_ text: String) -> [String]? {
        JOSEJSON.memberNames(Array(text.utf8))?.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("well-formed objects give their top-level names, escapes undone")
    func accepted() {
        #expect(names("{}") == [])
        #expect(names(" {\"a\":1} ") == ["a"])
        #expect(names("{\"alg\":\"EdDSA\",\"typ\":\"at+jwt\",\"kid\":\"x\"}") == ["alg", "typ", "kid"])
        #expect(names("{\"\\u0061\\/b\":[1,-2.5e+3,true,false,null,{\"a\":\"\\ud83d\\ude00\"}],\"c\":\"\\\"\"}") == ["a/b", "c"])
        #expect(names("{\"aud\":[\"x\",\"y\"],\"iat\":0,\"exp\":1.0E2}") == ["aud", "iat", "exp"])
    }

    @Test("repeated names at any depth, in any spelling, are refused")
    func duplicates() {
        for text in [
            "{\"a\":1,\"a\":2}", "{\"a\":1,\"\\u0061\":2}", "{\"x\":{\"b\":1,\"b\":1}}", "{\"x\":[{\"b\":1,\"b\":1}]}",
            "{\"\u{212B}\":1,\"\u{00C5}\":2}",  // ANGSTROM SIGN and Å: one key to Foundation
            "{\"e\u{0301}\":1,\"\u{00E9}\":2}",
        ] {
            #expect(names(text) == nil, "\(text)")
        }
        #expect(names("{\"a\":1,\"A\":2}") == ["a", "A"])
    }

    @Test("anything but one well-formed object is refused")
    func malformed() {
        for text in [
            "", "[]", "\"a\"", "1", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{\"a\":1}{}", "{\"a\":1} x",
            "{a:1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":nul}",
            "{\"a\":\"\u{01}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}",
            "{\"a\":\"unterminated}", "{\"a\":[1,]}", "{\"a\":[1 2]}", "{'a':1}", "{\"a\":NaN}", "{\"a\":+1}",
        ] {
            #expect(names(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test("depth and member counts are bounded")
    func bounds() {
        let deep = String(repeating: "{\"a\":", count: 9) + "1" + String(repeating: "}", count: 9)
        #expect(names(deep) == nil)
        let shallow = String(repeating: "{\"a\":", count: 8) + "1" + String(repeating: "}", count: 8)
        #expect(names(shallow) == ["a"])
        let many = "{" + (0..<33).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        #expect(names(many) == nil)
        let enough = "{" + (0..<32).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        #expect(names(enough)?.count == 32)
    }
}
