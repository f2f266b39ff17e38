import AccountAPI
import AccountStore
import Foundation
import LibCrypto
import Sodium
import Testing
import WebFetch

@testable import AccountCore
@testable import AccountServer

/// The claim checks of an Apple identity token and the reading of Apple's key set, without a
/// network: what the end-to-end tests cannot reach one by one (time edges, the nonce's case,
/// `aud` as an array, a key set with keys of other kinds).
@Suite struct AppleIdentityTokenTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let nonce = "raw nonce 한글"

    static func claims(_ spoil: (inout [String: Any]) -> Void = { _ in }) throws -> AppleIdentityToken.Claims {
        var members: [String: Any] = [
            "iss": "https://appleid.apple.com", "sub": "001.abc", "aud": "com.example.mbti", "iat": 1_790_000_000, "exp": 1_790_000_600,
            "nonce": Hex.encode(Digest.sha256(Array(nonce.utf8))), "email": "x@privaterelay.appleid.com", "email_verified": true,
        ]
        spoil(&members)
        return try JSONDecoder().decode(AppleIdentityToken.Claims.self, from: JSONSerialization.data(withJSONObject: members))
    }

    /// Its keys are never asked for: only the claims are checked here.
    static let verifier = AppleIdentityVerifier(
        keys: AppleKeySet(url: "http://127.0.0.1:1/", fetcher: WebFetcher(threads: 1)), clientIDs: ["com.example.mbti"])

    static func check(_ claims: AppleIdentityToken.Claims, at now: Date = now, maximumAge: TimeInterval? = nil) -> AppleTokenRefusal? {
        do throws(AppleTokenRefusal) {
            _ = try verifier.check(claims, signedPart: Array("header.claims".utf8), nonce: nonce, now: now, maximumAge: maximumAge)
            return nil
        } catch {
            return error
        }
    }

    @Test func theGoodClaimsPassAndEachSpoiledOneNamesItsCheck() throws {
        #expect(Self.check(try Self.claims()) == nil)
        #expect(Self.check(try Self.claims { $0["aud"] = ["com.example.other", "com.example.mbti"] }) == nil)
        #expect(Self.check(try Self.claims { $0["nonce"] = ($0["nonce"] as! String).uppercased() }) == nil)
        #expect(Self.check(try Self.claims { $0["email_verified"] = "true" }) == nil)
        #expect(Self.check(try Self.claims { $0["aud"] = ["com.example.other"] }) == .audience)
        #expect(Self.check(try Self.claims { $0["iss"] = "appleid.apple.com" }) == .issuer)
        #expect(Self.check(try Self.claims { $0["nonce"] = Self.nonce }) == .nonce, "the raw nonce itself is not its hash")
        #expect(Self.check(try Self.claims { $0["email_verified"] = "false" }) == .emailNotVerified)
        #expect(Self.check(try Self.claims { $0["email"] = nil }) == .emailNotVerified)
        #expect(Self.check(try Self.claims { $0["sub"] = "" }) == .malformed)
        #expect(throws: (any Error).self) { try Self.claims { $0["email_verified"] = "yes" } }
    }

    @Test func timesHaveSixtySecondsOfSkew() throws {
        let claims = try Self.claims()
        #expect(Self.check(claims, at: Self.now.addingTimeInterval(659)) == nil)
        #expect(Self.check(claims, at: Self.now.addingTimeInterval(660)) == .expired)
        #expect(Self.check(claims, at: Self.now.addingTimeInterval(-60)) == nil)
        #expect(Self.check(claims, at: Self.now.addingTimeInterval(-61)) == .issuedAt)
        // A proof must be fresh: issued at most 10 minutes (and the skew) ago.
        let long = try Self.claims { $0["exp"] = 1_790_003_600 }
        #expect(Self.check(long, at: Self.now.addingTimeInterval(660), maximumAge: 600) == nil)
        #expect(Self.check(long, at: Self.now.addingTimeInterval(661), maximumAge: 600) == .issuedAt)
    }

    @Test func aTokenValidForMoreThanADayAheadIsRefused() throws {
        let day = try Self.claims { $0["exp"] = 1_790_000_000 + 86_400 + 60 }
        #expect(Self.check(day) == nil)
        let longer = try Self.claims { $0["exp"] = 1_790_000_000 + 86_400 + 61 }
        #expect(Self.check(longer) == .lifetime)
        let absurd = try Self.claims { $0["exp"] = 1e300 }
        #expect(Self.check(absurd) == .lifetime, "never a date the store cannot hold")
    }

    /// What identifies a token for its single use is what Apple signed: the same signed part is the
    /// same token whatever else comes with it, and its record lasts as long as the token does.
    @Test func aTokensUseIsNamedByWhatAppleSigned() throws {
        func use(_ signedPart: String) throws -> UsedAppleTokenRecord {
            try Self.verifier.check(try Self.claims(), signedPart: Array(signedPart.utf8), nonce: Self.nonce, now: Self.now, maximumAge: nil).use
        }
        #expect(try use("a.b") == use("a.b"))
        #expect(try use("a.b").hash != use("a.c").hash)
        #expect(try use("a.b").hash.count == 32)
        #expect(try use("a.b").expiresAt == Date(timeIntervalSince1970: 1_790_000_600 + 60), "until exp and the skew")
    }

    @Test func aTokenIsTakenApartStrictly() {
        func refusal(_ text: String) -> AppleTokenRefusal? {
            do throws(AppleTokenRefusal) { _ = try AppleIdentityToken(text); return nil } catch { return error }
        }
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k"}"#.utf8))
        let twice = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k","alg":"none"}"#.utf8))
        let body = Base64URL.encode(Array(#"{"iss":"i","sub":"s","aud":"a","iat":1,"exp":2}"#.utf8))
        #expect(refusal("\(header).\(body).c2ln") == nil)
        #expect(refusal("\(twice).\(body).c2ln") == .malformed, "a member named twice")
        #expect(refusal("\(header).\(body)") == .malformed)
        #expect(refusal("\(header).\(body).c2ln.x") == .malformed)
        #expect(refusal("\(header).e30.c2ln") == .malformed, "claims missing")
        #expect(refusal(String(repeating: "a", count: AppleIdentityToken.maximumSize + 1)) == .tooLarge)
    }

    @Test func aKeySetKeepsItsRS256KeysOnly() throws {
        let key = RSASigningKey.generate()
        let weak = RSASigningKey.generate(bits: 1024)
        func jwk(_ kid: String, _ key: RSASigningKey, _ extra: [String: Any] = [:]) -> [String: Any] {
            ["kty": "RSA", "kid": kid, "n": Base64URL.encode(key.modulus), "e": Base64URL.encode(key.exponent)].merging(extra) { $1 }
        }
        let set: [String: Any] = ["keys": [
            jwk("good", key, ["use": "sig", "alg": "RS256"]), jwk("bare", key), jwk("enc", key, ["use": "enc"]),
            jwk("ps", key, ["alg": "PS256"]), jwk("weak", weak), ["kty": "EC", "kid": "ec", "crv": "P-256", "x": "AA", "y": "AA"],
        ]]
        let parsed = try AppleKeySet.parse([UInt8](JSONSerialization.data(withJSONObject: set)))
        #expect(Set(parsed.keys) == ["good", "bare"])
        #expect(throws: (any Error).self) { try AppleKeySet.parse(Array(#"{"keys":[]}"#.utf8)) }
        #expect(throws: (any Error).self) { try AppleKeySet.parse(Array(#"{"keys":[],"keys":[]}"#.utf8)) }
    }
}
