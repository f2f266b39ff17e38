import AccountAPI
import Foundation

/// When another code may be mailed, by address: the server counts its resend limit per address
/// (trimmed, case ignored), so coming back to an address finds its countdown where it was.
struct CodeCooldowns: Sendable, Equatable {
    private var until: [String: Date] = [:]

    /// When another code may be asked for `email`; `nil` before its first request.
    func availableAt(_ email: String) -> Date? { until[Self.key(email)] }

    /// Whole seconds until another code may be asked for `email` at `now`; 0 when it may be now.
    func countdown(_ email: String, at now: Date) -> Int {
        guard let date = availableAt(email) else { return 0 }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    /// Starts a wait of `seconds` for `email` from `now` (a code sent, or the server's `Retry-After`).
    mutating func wait(_ seconds: Int, for email: String, from now: Date) {
        until[Self.key(email)] = now.addingTimeInterval(TimeInterval(seconds))
    }

    /// Addresses as the server compares them for its limits.
    private static func key(_ email: String) -> String { EmailRule.normalize(email).lowercased() }
}
