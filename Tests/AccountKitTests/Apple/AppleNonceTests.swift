import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// Sign in with Apple's nonce: random, kept by the SDK, its SHA-256 in hex for Apple.
@Suite struct AppleNonceTests {
    @Test func sha256MatchesTheStandardsVectors() {
        // FIPS 180-4's examples, and a message longer than one block.
        #expect(SHA256.hex("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // Lengths around the padding boundary (55, 56, 64 bytes) against each other's structure.
        for length in [55, 56, 63, 64, 65] {
            #expect(SHA256.hash([UInt8](repeating: 0, count: length)).count == 32)
        }
        #expect(SHA256.hex([UInt8](repeating: 0, count: 55)) == "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7")
        #expect(SHA256.hex([UInt8](repeating: 0, count: 64)) == "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b")
    }

    @Test func aNonceIsRandomAndItsHashIsWhatAppleGets() {
        let nonce = AppleNonce()
        #expect(nonce.raw.count == 43 && Base64URL.decode(nonce.raw)?.count == 32)
        #expect(nonce.hashed == SHA256.hex(Array(nonce.raw.utf8)))
        #expect(nonce.hashed.count == 64 && nonce.hashed.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(Set((0..<100).map { _ in AppleNonce().raw }).count == 100)
        #expect(AppleNonce(raw: "abc").hashed == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(!String(describing: nonce).contains(nonce.raw) && String(describing: nonce).contains(nonce.hashed))
        let answer = AppleIDAuthorization(identityToken: "eyJ.token.sig", authorizationCode: "c0de", user: "001234.abcd", email: "x@privaterelay.appleid.com")
        let printed = String(describing: answer) + String(reflecting: answer)
        #expect(!printed.contains("eyJ") && !printed.contains("c0de") && !printed.contains("001234") && !printed.contains("privaterelay"))
    }
}
