import Sodium

/// Who presented a refresh token or made a sign-up: a keyed hash of its `User-Agent` and client
/// address (as the server counts it, after trusted-proxy handling), so the database holds neither
/// in clear.
///
/// The grace repeat of a refresh (the same pair again, within seconds of the first use) goes only
/// to a client with the first use's fingerprint; from anywhere else it is reuse (RFC 9700
/// §4.14.2). A pending sign-up that replaces another client's is contested
/// (``PendingSignUps/holdSignUp(_:now:in:)``).
package enum ClientFingerprint {
    /// 16 bytes of HMAC-SHA-256 under `key` over the User-Agent (length-prefixed, absent apart
    /// from empty) and the address.
    package static func of(userAgent: String?, address: String, key: [UInt8]) -> [UInt8] {
        var message: [UInt8] = []
        if let userAgent {
            let bytes = Array(userAgent.utf8)
            let length = UInt32(truncatingIfNeeded: bytes.count)
            message.append(1)
            message += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            message += bytes
        } else {
            message.append(0)
        }
        message += Array(address.utf8)
        return Array(Digest.hmacSHA256(key: key, message: message).prefix(16))
    }
}
