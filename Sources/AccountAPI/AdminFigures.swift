import Foundation

/// Logins of one bucket by outcome.
public struct LoginFigures: Codable, Hashable, Sendable {
    /// A session opened (password, second factor, passkey, or a sign-up's code).
    public let succeeded: Int
    /// A wrong password or second-factor code, an unknown account, a passkey refused.
    public let failed: Int
    /// A right password whose login waits for the second factor.
    public let mfaRequired: Int
    /// Not even checked, or not allowed: the login back-off, a disabled account, an unverified address.
    public let refused: Int

    public init(succeeded: Int, failed: Int, mfaRequired: Int, refused: Int) {
        self.succeeded = succeeded
        self.failed = failed
        self.mfaRequired = mfaRequired
        self.refused = refused
    }

    enum CodingKeys: String, CodingKey {
        case succeeded, failed, refused
        case mfaRequired = "mfa_required"
    }
}

/// What happened in one hour or one day (UTC), from the server's hourly counters.
public struct FiguresBucket: Codable, Hashable, Sendable {
    /// The start of the hour or day.
    public let start: Date
    /// Accounts made.
    public let signups: Int
    public let logins: LoginFigures
    /// Refresh tokens traded for a new pair.
    public let refreshes: Int
    /// Codes mailed (sign-up, verification, password reset).
    public let codesSent: Int

    public init(start: Date, signups: Int, logins: LoginFigures, refreshes: Int, codesSent: Int) {
        self.start = start
        self.signups = signups
        self.logins = logins
        self.refreshes = refreshes
        self.codesSent = codesSent
    }

    enum CodingKeys: String, CodingKey {
        case start, signups, logins, refreshes
        case codesSent = "codes_sent"
    }
}

/// `GET /admin/api/figures`: the last 24 hours and the last 30 days, oldest first, the last
/// bucket the current hour and day; quiet buckets are there with zeros.
public struct AdminFigures: Codable, Hashable, Sendable {
    public let hourly: [FiguresBucket]
    public let daily: [FiguresBucket]

    public init(hourly: [FiguresBucket], daily: [FiguresBucket]) {
        self.hourly = hourly
        self.daily = daily
    }
}
