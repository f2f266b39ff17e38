import Foundation

/// The time source of the server; tests inject a fixed or movable clock instead of sleeping.
public struct ServerClock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The system clock.
    public static let system = ServerClock { Date() }
}
