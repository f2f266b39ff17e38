import CLibCrypto

/// One libcrypto key (`EVP_PKEY`), freed with its owner; the only holder of a raw key pointer.
///
/// A key is only read once made (signing and verifying take their own contexts), which libcrypto
/// allows from several threads at once.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Takes ownership of `pointer`; `nil` for a null one.
    convenience init?(taking pointer: OpaquePointer?) {
        guard let pointer else { return nil }
        self.init(pointer)
    }
    deinit { EVP_PKEY_free(pointer) }

    /// A new key pair of `algorithm`, after `configure` set its size or curve on the context.
    static func generate(_ algorithm: String, _ configure: (OpaquePointer) -> Int32) -> EVPKey {
        let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil)
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard let context, EVP_PKEY_keygen_init(context) == 1, configure(context) == 1,
            EVP_PKEY_generate(context, &made) == 1, let made
        else { preconditionFailure("libcrypto could not generate a \(algorithm) key") }
        return EVPKey(made)
    }

    /// Whether `signature` is this key's signature of SHA-256(`message`) (the key's own scheme:
    /// ECDSA with a DER signature, RSASSA-PKCS1-v1_5 for RSA).
    func verifySHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        // 1 is a valid signature; 0 a wrong one, a negative value a malformed one.
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    /// This key's signature of SHA-256(`message`).
    func signSHA256(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1,
            EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { preconditionFailure("libcrypto could not start a signature") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            preconditionFailure("libcrypto could not sign")
        }
        return Array(signature.prefix(length))
    }

    /// The key's big-number parameter `name` (`"n"`, `"e"`) as unsigned big-endian bytes.
    func bigNumber(_ name: String) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            preconditionFailure("the key has no parameter \(name)")
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        _ = BN_bn2bin(number, &bytes)
        return bytes
    }

    /// The key's octet-string parameter `name` (`"pub"`: an EC key's encoded point).
    func octets(_ name: String) -> [UInt8] {
        let capacity = 1024
        var bytes = [UInt8](repeating: 0, count: capacity)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pointer, name, &bytes, capacity, &length) == 1 else {
            preconditionFailure("the key has no parameter \(name)")
        }
        return Array(bytes.prefix(length))
    }
}
