import CLibCrypto
import Foundation

/// Why a private key file was refused.
public enum PrivateKeyError: Error, Equatable, CustomStringConvertible {
    /// Not a `-----BEGIN PRIVATE KEY-----` PEM block of base64.
    case notPEM
    /// A PKCS #8 key, but not P-256 (or not a key at all).
    case notP256

    public var description: String {
        switch self {
        case .notPEM: "not a PEM private key (-----BEGIN PRIVATE KEY-----)"
        case .notP256: "not a PKCS #8 P-256 private key"
        }
    }
}

extension P256SigningKey {
    /// The key of a PKCS #8 PEM file, such as the `.p8` key Apple gives for Sign in with Apple.
    /// - Throws: ``PrivateKeyError`` for anything but one PEM block holding a P-256 key.
    public init(pkcs8PEM text: String) throws {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.first == "-----BEGIN PRIVATE KEY-----", lines.last == "-----END PRIVATE KEY-----", lines.count > 2,
            let der = Data(base64Encoded: lines.dropFirst().dropLast().joined())
        else { throw PrivateKeyError.notPEM }
        try self.init(pkcs8DER: [UInt8](der))
    }

    /// The key of a DER PKCS #8 `PrivateKeyInfo`.
    /// - Throws: ``PrivateKeyError/notP256`` unless it is exactly one P-256 key.
    public init(pkcs8DER der: [UInt8]) throws {
        guard der.count <= 4096, let key = EVPKey(taking: clibcrypto_p256_private_key_pkcs8(der, der.count)) else {
            throw PrivateKeyError.notP256
        }
        let point = key.octets("pub")
        guard point.count == 65, point[0] == 0x04 else { throw PrivateKeyError.notP256 }
        self.init(key: key, x: Array(point[1..<33]), y: Array(point[33..<65]))
    }

    /// The key as a PKCS #8 PEM file (what ``init(pkcs8PEM:)`` reads).
    public var pkcs8PEM: String {
        var der = [UInt8](repeating: 0, count: 1024)
        let length = Int(clibcrypto_private_key_pkcs8(key.pointer, &der, Int32(der.count)))
        precondition(length > 0, "libcrypto could not encode the key")
        let base64 = Data(der.prefix(length)).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n"
    }

    /// The JWS ES256 signature of `message` (RFC 7518 §3.4): `r || s`, 32 bytes each.
    public func signJOSE(_ message: [UInt8]) -> [UInt8] {
        guard let raw = P256.joseSignature(der: sign(message)) else { preconditionFailure("libcrypto gave a malformed signature") }
        return raw
    }
}

extension P256 {
    /// A DER `ECDSA-Sig-Value` as JOSE's 64-byte `r || s`; `nil` when it is not one.
    public static func joseSignature(der: [UInt8]) -> [UInt8]? {
        guard der.count <= 72 else { return nil }
        var raw = [UInt8](repeating: 0, count: 64)
        return clibcrypto_p256_signature_raw(der, der.count, &raw) == 1 ? raw : nil
    }

    /// JOSE's 64-byte `r || s` as a DER `ECDSA-Sig-Value` (what ``P256PublicKey/verify(signature:message:)`` takes).
    public static func derSignature(jose raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        var der = [UInt8](repeating: 0, count: 80)
        let length = Int(clibcrypto_p256_signature_der(raw, &der))
        return length > 0 ? Array(der.prefix(length)) : nil
    }
}
