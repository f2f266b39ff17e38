import Foundation
import LibCrypto
import Testing

/// Apple's `.p8` keys (PKCS #8 PEM, P-256) and JWS ES256 signatures (`r || s`), against keys
/// and signatures OpenSSL's command line made.
@Suite struct P256KeyFileTests {
    /// `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`, with its public point
    /// from `openssl pkey -pubout`.
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgCm0z3EB4uFvqovp7
        lmadY263xajt0yd6s6lIgzyF7YKhRANCAAQaA5Kym0YNs/S2FLU5sQZ0FA9Xc699
        lBoMeiXPalzIvNn0WofUOOZdzxm3jFfVjTkCnzycwIcc/rTLW4079HuO
        -----END PRIVATE KEY-----
        """
    static let point = bytes("041a0392b29b460db3f4b614b539b10674140f5773af7d941a0c7a25cf6a5cc8bcd9f45a87d438e65dcf19b78c57d58d39029f3c9cc0871cfeb4cb5b8d3bf47b8e")
    static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDNnye0YhhLkq4m4by+
        zYV7/NzGfC9tF8/b5dumeeRuqYg6bo3CgpsSRH9eQrCj3rahZANiAATUIUfBi67k
        +TGKYYKBNONAbYK7DVQK3L3agfng2nzPYOqboKr6+56yegxr8OUUgVfP+iXQMRI1
        A+gHANcO/pL2JJ9Z7HViRIFrUfT3moHezs9srRkn15yQ2xjbA51KxAw=
        -----END PRIVATE KEY-----
        """
    static let ed25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIMwcNIgRXQPNITks/qywgrLQGvUyhrCb092GVaV3vmN7
        -----END PRIVATE KEY-----
        """

    @Test func aKeyFileOpenSSLMadeLoadsWithItsPublicPoint() throws {
        let key = try P256SigningKey(pkcs8PEM: Self.pem)
        #expect([0x04] + key.x + key.y == Self.point)
        let message = Array("header.claims".utf8)
        let jose = key.signJOSE(message)
        #expect(jose.count == 64)
        let der = try #require(P256.derSignature(jose: jose))
        #expect(P256.verify(signature: der, message: message, x: key.x, y: key.y))
        #expect(!P256.verify(signature: der, message: message + [0], x: key.x, y: key.y))
    }

    @Test func aKeyWrittenAndReadBackIsTheSameKey() throws {
        let key = P256SigningKey.generate()
        let again = try P256SigningKey(pkcs8PEM: key.pkcs8PEM)
        #expect(again.x == key.x && again.y == key.y)
        #expect(key.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n") && key.pkcs8PEM.hasSuffix("-----END PRIVATE KEY-----\n"))
        let der = try #require(P256.derSignature(jose: again.signJOSE([1, 2, 3])))
        #expect(P256.verify(signature: der, message: [1, 2, 3], x: key.x, y: key.y))
    }

    @Test func otherKeysAndTextsAreRefused() {
        #expect(throws: PrivateKeyError.notP256) { try P256SigningKey(pkcs8PEM: Self.p384) }
        #expect(throws: PrivateKeyError.notP256) { try P256SigningKey(pkcs8PEM: Self.ed25519) }
        #expect(throws: PrivateKeyError.notPEM) { try P256SigningKey(pkcs8PEM: "") }
        #expect(throws: PrivateKeyError.notPEM) { try P256SigningKey(pkcs8PEM: Self.pem.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY")) }
        #expect(throws: PrivateKeyError.notPEM) { try P256SigningKey(pkcs8PEM: "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----") }
        // Bytes after the key, or a key cut short.
        let body = Self.pem.split(separator: "\n").dropFirst().dropLast().joined()
        let der = [UInt8](Data(base64Encoded: body)!)
        #expect(throws: PrivateKeyError.notP256) { try P256SigningKey(pkcs8DER: der + [0]) }
        #expect(throws: PrivateKeyError.notP256) { try P256SigningKey(pkcs8DER: Array(der.dropLast())) }
        #expect(throws: PrivateKeyError.notP256) { try P256SigningKey(pkcs8DER: []) }
    }

    @Test func signaturesConvertBetweenDERAndJOSE() throws {
        // The DER vector of P256Tests, as JOSE and back, unchanged.
        let jose = try #require(P256.joseSignature(der: P256Tests.signature))
        #expect(jose.count == 64)
        #expect(P256.derSignature(jose: jose) == P256Tests.signature)
        #expect(P256.joseSignature(der: P256Tests.signature + [0]) == nil)
        #expect(P256.joseSignature(der: Array(P256Tests.signature.dropLast())) == nil)
        #expect(P256.derSignature(jose: Array(jose.dropLast())) == nil)
        #expect(P256.joseSignature(der: []) == nil)
    }
}
