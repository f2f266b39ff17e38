import CSodium

/// Authenticated secret-key encryption (libsodium's `crypto_secretbox`: XSalsa20-Poly1305) with
/// a fresh random nonce for every value.
///
/// ```swift
/// let key = SecretBoxKey.generate()
/// let box = SecretBox.seal(Array("seed".utf8), key: key)   // nonce ‖ MAC ‖ ciphertext
/// SecretBox.open(box, key: key)                            // the bytes again; nil if altered
/// ```
public enum SecretBox {
    /// Bytes a sealed value has beyond its plaintext: the 24-byte nonce and the 16-byte MAC.
    public static let overhead = crypto_secretbox_noncebytes() + crypto_secretbox_macbytes()

    /// Encrypts and authenticates `plaintext` under `key`; the result is nonce, MAC, ciphertext.
    public static func seal(_ plaintext: [UInt8], key: SecretBoxKey) -> [UInt8] {
        Sodium.initialize()
        let nonce = SecureRandom.bytes(count: crypto_secretbox_noncebytes())
        var sealed = [UInt8](repeating: 0, count: crypto_secretbox_macbytes() + plaintext.count)
        Sodium.checkInfallible(
            crypto_secretbox_easy(&sealed, plaintext, UInt64(plaintext.count), nonce, key.bytes),
            "crypto_secretbox_easy")
        return nonce + sealed
    }

    /// The plaintext of a value ``seal(_:key:)`` made with `key`; `nil` when it is too short, was
    /// altered, or was sealed with another key.
    public static func open(_ box: [UInt8], key: SecretBoxKey) -> [UInt8]? {
        Sodium.initialize()
        let nonceLength = crypto_secretbox_noncebytes()
        guard box.count >= overhead else { return nil }
        let nonce = Array(box[..<nonceLength])
        let sealed = Array(box[nonceLength...])
        var plaintext = [UInt8](repeating: 0, count: sealed.count - crypto_secretbox_macbytes())
        let code = crypto_secretbox_open_easy(&plaintext, sealed, UInt64(sealed.count), nonce, key.bytes)
        return Sodium.succeeded(code) ? plaintext : nil
    }
}

/// A 32-byte `crypto_secretbox` key.
public struct SecretBoxKey: Sendable, Equatable {
    /// The key bytes. Secret.
    public let bytes: [UInt8]

    /// The key made of `bytes`.
    /// - Throws: ``SodiumError/invalidKey`` unless `bytes` is exactly 32 bytes long.
    public init(bytes: [UInt8]) throws(SodiumError) {
        guard bytes.count == crypto_secretbox_keybytes() else { throw .invalidKey }
        self.bytes = bytes
    }

    /// A new random key.
    public static func generate() -> SecretBoxKey {
        do {
            return try SecretBoxKey(bytes: SecureRandom.bytes(count: crypto_secretbox_keybytes()))
        } catch {
            preconditionFailure("a random key of the right size was rejected")
        }
    }

    /// A key for one purpose, derived from this one with keyed BLAKE2b over `context`: values
    /// sealed for one context never open in another, and the subkeys say nothing of this key.
    public func derived(context: String) -> SecretBoxKey {
        Sodium.initialize()
        let message = Array(context.utf8)
        var out = [UInt8](repeating: 0, count: crypto_secretbox_keybytes())
        Sodium.checkInfallible(
            crypto_generichash(&out, out.count, message, UInt64(message.count), bytes, bytes.count),
            "crypto_generichash")
        do {
            return try SecretBoxKey(bytes: out)
        } catch {
            preconditionFailure("a derived key of the right size was rejected")
        }
    }
}
