import Foundation

/// One event of an account's own security history: a login, a failed attempt, a
/// password or second-factor change, a passkey added, a session ended. Kept in the transaction of
/// the change it records; never a secret (no password, code, token or factor secret).
public struct SecurityEventRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var at: Date
    /// `login_succeeded`, `login_failed`, `password_changed`, … (the wire's `type`).
    public var type: String
    /// The client's address (after trusted proxies), if known.
    public var clientAddress: String?
    /// The device, as its `User-Agent` names it, if known.
    public var deviceName: String?
    /// A small JSON object of strings (`{"method":"passkey"}`), or `nil`.
    public var detail: String?

    public init(
        id: UUID, userID: UUID, at: Date, type: String, clientAddress: String?, deviceName: String?, detail: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.at = at
        self.type = type
        self.clientAddress = clientAddress
        self.deviceName = deviceName
        self.detail = detail
    }
}

/// A count of one activity (`signups`, `logins.failed`, `refreshes`, …) in one hour (UTC): what
/// the operators' figures are made from. Servers add to it; nobody overwrites it.
public struct HourlyCount: Sendable, Equatable, Hashable {
    /// The start of the hour.
    public var hour: Date
    public var name: String
    public var value: Int64

    public init(hour: Date, name: String, value: Int64) {
        self.hour = hour
        self.name = name
        self.value = value
    }
}
