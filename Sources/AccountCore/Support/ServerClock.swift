import Foundation

/// The time source of the server; tests inject a fixed or movable clock instead of sleeping.
public struct ServerClock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The system clock.
    public static let system = ServerClock { Date() }

    /// The system clock moved by the seconds written in `path` (absent or unreadable: no move).
    ///
    /// For tests of the real binary: they move the server's time by rewriting the file instead of
    /// sleeping through back-offs and expiries. The file is read at every reading of the clock.
    public static func offset(byFileAt path: String) -> ServerClock {
        ServerClock {
            let text = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            return Date().addingTimeInterval(text.flatMap(TimeInterval.init) ?? 0)
        }
    }
}
