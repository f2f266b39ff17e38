import Foundation

/// The numbers of the per-account login back-off: tries in a window, the first back-off.
struct LoginLimits: Sendable, Equatable {
    /// Failed tries before the back-off starts; 0 turns it off.
    let attempts: Int
    /// The window the failures are counted in, and the longest back-off.
    let window: TimeInterval
    /// The first back-off; each further failure doubles it.
    let backoff: TimeInterval
}

/// Each address's budget for mail of every kind: at most one message an interval and so many an hour.
struct MailBudget: Sendable, Equatable {
    /// Seconds between two messages to an address; 0 for no interval.
    let interval: Int
    /// Messages an hour to an address; 0 for no hourly limit.
    let perHour: Int
}

/// The lifetime and guessing limit of one-time codes.
struct CodeRules: Sendable, Equatable {
    /// How long a code is good for.
    let lifetime: TimeInterval
    /// Wrong tries before a code is spent.
    let maxAttempts: Int
}
