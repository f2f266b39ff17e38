import AccountAPI
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// The server's RFC 6238 codes, base32 and recovery-code text, against the RFCs' own vectors.
@Suite("Authenticator codes, base32 and recovery codes")
struct SecondFactorCodeTests {
    /// RFC 6238 appendix B, SHA-1 rows (secret "12345678901234567890"): time and the 8-digit code,
    /// whose last six digits a 6-digit code is.
    static let rfc6238: [(time: TimeInterval, code: String)] = [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ]

    @Test func codesMatchRFC6238() {
        let secret = Array("12345678901234567890".utf8)
        for (time, code) in Self.rfc6238 {
            let date = Date(timeIntervalSince1970: time)
            #expect(TOTP.code(secret: secret, step: TOTP.step(at: date)) == String(code.suffix(6)), "T = \(time)")
        }
    }

    @Test func aCodeMatchesOnceWithinOneStepEitherSide() {
        let secret = Array("12345678901234567890".utf8)
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let step = TOTP.step(at: now)
        for offset in Int64(-1)...1 {
            let code = TOTP.code(secret: secret, step: step + offset)
            #expect(TOTP.matchingStep(of: code, secret: secret, now: now, after: nil) == step + offset)
            #expect(TOTP.matchingStep(of: code, secret: secret, now: now, after: step + offset) == nil, "a used step is not accepted again")
        }
        #expect(TOTP.matchingStep(of: TOTP.code(secret: secret, step: step + 2), secret: secret, now: now, after: nil) == nil)
        #expect(TOTP.matchingStep(of: TOTP.code(secret: secret, step: step - 2), secret: secret, now: now, after: nil) == nil)
        // An earlier step's code after a later one was used: refused (RFC 6238 §5.2).
        #expect(TOTP.matchingStep(of: TOTP.code(secret: secret, step: step - 1), secret: secret, now: now, after: step) == nil)
    }

    /// RFC 4648 §10.
    @Test func base32MatchesRFC4648() {
        let vectors = [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI")]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
            #expect(Base32.decode(encoded.lowercased()) == Array(plain.utf8))
        }
        #expect(Base32.decode("MZXW6YQ=") == Array("foob".utf8), "padding is fine")
        #expect(Base32.decode("MZXW 6YTB-OI") == Array("foobar".utf8), "groups typed with spaces or hyphens")
        #expect(Base32.decode("MZXW6YT1") == nil, "1 is not base32")
        #expect(Base32.decode("M") == nil, "no encoder writes one symbol")
        #expect(Base32.decode("MZ") == nil, "leftover bits must be zero")
        #expect(Base32.decode("MY=A") == nil, "nothing after padding")
        let random = (0..<64).map { _ in UInt8.random(in: 0...255) }
        for length in 0...random.count {
            #expect(Base32.decode(Base32.encode(Array(random.prefix(length)))) == Array(random.prefix(length)))
        }
    }

    @Test func recoveryCodeTextIsForgiving() {
        #expect(RecoveryCodeRule.normalize("abcde-fghjk") == "abcdefghjk")
        #expect(RecoveryCodeRule.normalize(" ABCDE FGHJK ") == "abcdefghjk")
        #expect(RecoveryCodeRule.normalize("0o1il-23456") == "0011123456", "look-alikes of 0 and 1 read as them")
        #expect(RecoveryCodeRule.normalize("abcde-fghj") == nil)
        #expect(RecoveryCodeRule.normalize("abcde-fghjkm") == nil)
        #expect(RecoveryCodeRule.normalize("abcde-fghju") == nil, "u is not in the alphabet")
        #expect(RecoveryCodeRule.normalize("abcde-fghj１") == nil, "full-width digits are not")
    }

    @Test func otpauthURIsAreEncoded() async throws {
        let harness = try await Harness.make { $0.totpIssuer = "MBTI Playground" }
        let factors = harness.app.services.secondFactor
        let uri = factors.otpauthURI(secret: Array("12345678901234567890".utf8), nickname: "민수 kim")
        #expect(uri == "otpauth://totp/MBTI%20Playground:%EB%AF%BC%EC%88%98%20kim?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
            + "&issuer=MBTI%20Playground&algorithm=SHA1&digits=6&period=30")
        let codes = factors.newRecoveryCodes()
        #expect(codes.count == 10 && Set(codes).count == 10)
        for code in codes {
            #expect(code.count == 11 && code.dropFirst(5).first == "-")
            #expect(RecoveryCodeRule.normalize(code) != nil)
        }
    }
}
