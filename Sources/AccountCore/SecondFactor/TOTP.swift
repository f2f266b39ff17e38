import Foundation
import LibCrypto
import Sodium

/// Time-based one-time passwords (RFC 6238) with the parameters every authenticator app reads by
/// default: HMAC-SHA-1, 6 digits, 30-second steps from the Unix epoch.
///
/// ```swift
/// let step = TOTP.step(at: now)
/// TOTP.code(secret: secret, step: step)   // "287082"
/// ```
package enum TOTP {
    package static let digits = 6
    package static let period: Int64 = 30
    /// Steps accepted either side of the server's own (clock skew, a code typed at a step's end).
    package static let skew: Int64 = 1

    /// The 30-second step `date` falls in (RFC 6238 §4: `T = floor((t - T0) / X)`).
    package static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code of `step` (HOTP of RFC 4226 with the step as counter): dynamic truncation of the
    /// HMAC-SHA-1, the last `digits` decimal digits, zero-padded.
    package static func code(secret: [UInt8], step: Int64) -> String {
        let counter = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: step) >> UInt64(56 - 8 * $0)) }
        let mac = HMAC.sha1(key: secret, message: counter)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let value = binary % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The step within ±``skew`` of `now` whose code is `code` and that is later than `after`
    /// (the last step accepted, so no code is accepted twice), if any; the earliest such step.
    package static func matchingStep(of code: String, secret: [UInt8], now: Date, after: Int64?) -> Int64? {
        let current = step(at: now)
        let expected = Array(code.utf8)
        for candidate in (current - skew)...(current + skew) where candidate > (after ?? .min) {
            // Compared in full, whatever the first difference: the time says nothing of the code.
            if constantTimeEquals(Array(Self.code(secret: secret, step: candidate).utf8), expected) { return candidate }
        }
        return nil
    }
}
