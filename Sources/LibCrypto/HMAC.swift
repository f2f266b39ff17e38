import CLibCrypto

/// HMAC (RFC 2104) by OpenSSL's libcrypto, for the digests libsodium does not have.
///
/// libsodium offers HMAC only over SHA-256 and SHA-512; authenticator apps (RFC 6238's defaults)
/// compute their codes with HMAC-SHA-1, so that one comes from libcrypto.
///
/// ```swift
/// let mac = HMAC.sha1(key: Array("key".utf8), message: Array("The quick brown fox".utf8))  // 20 bytes
/// ```
public enum HMAC {
    /// The 20-byte HMAC-SHA-1 of `message` under `key` (a key of any length, as RFC 2104 says).
    ///
    /// SHA-1's collisions do not weaken HMAC-SHA-1 as a keyed function (RFC 6194 §3.2), which is
    /// all one-time passwords ask of it; use it for nothing else.
    public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // HMAC() returns NULL only when the digest is unavailable or allocation fails: nothing a
        // caller could handle, and a wrong code must never be produced instead.
        let done = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                CLibCrypto.HMAC(
                    EVP_sha1(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count,
                    &out, &length)
            }
        }
        precondition(done != nil && length == 20, "libcrypto's HMAC-SHA-1 failed")
        return Array(out.prefix(Int(length)))
    }
}
