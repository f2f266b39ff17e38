import Foundation

/// The numbers of the per-account login back-off: tries in a window, the first back-off.
package struct LoginLimits: Sendable, Equatable {
    /// Failed tries before the back-off starts; 0 turns it off.
    package let attempts: Int
    /// The window the failures are counted in, and the longest back-off.
    package let window: TimeInterval
    /// The first back-off; each further failure doubles it.
    package let backoff: TimeInterval
}

/// Each address's budget for mail of every kind: at most one message an interval and so many an hour.
package struct MailBudget: Sendable, Equatable {
    /// Seconds between two messages to an address; 0 for no interval.
    package let interval: Int
    /// Messages an hour to an address; 0 for no hourly limit.
    package let perHour: Int
}

/// The lifetime and guessing limit of one-time codes.
package struct CodeRules: Sendable, Equatable {
    /// How long a code is good for.
    package let lifetime: TimeInterval
    /// Wrong tries before a code is spent.
    package let maxAttempts: Int
}
