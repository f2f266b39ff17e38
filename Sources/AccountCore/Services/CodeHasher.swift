import Sodium

/// Makes one-time codes and their keyed hashes, bound to address and purpose.
package struct CodeHasher: Sendable {
    package let key: [UInt8]
    package let digits: Int
    /// Where new codes are drawn from.
    package let random: Randomness

    /// A new code of `digits` unbiased random digits.
    package func newCode() -> String { random.digits(digits) }

    /// HMAC-SHA256 over purpose, address key and code: a code for one address or purpose never
    /// matches another's row, and the database alone does not give the code away.
    package func hash(code: String, emailKey: String, purpose: String) -> [UInt8] {
        Digest.hmacSHA256(key: key, message: Array("\(purpose)\u{0}\(emailKey)\u{0}\(code)".utf8))
    }
}
