import AccountAPI
import Foundation

/// The session's state and expiry times, readable from any thread without waiting for the actor
/// (``SessionManager/currentUser`` and its siblings); the actor writes it whenever they change.
///
/// An `NSLock` rather than `Mutex`, which needs iOS 18 while the SDK supports iOS 17.
final class SessionSnapshot: @unchecked Sendable {
    struct Values {
        var state: SessionManager.State = .unknown
        var accessExpiresAt: Date?
        var refreshExpiresAt: Date?
        /// How many passkeys an account held when they were last listed or changed here.
        var passkeys: (userID: UUID, count: Int)?
    }

    private let lock = NSLock()
    private var values = Values()

    /// The values now.
    var current: Values { lock.withLock { values } }

    /// Changes the values.
    func update(_ change: (inout Values) -> Void) { lock.withLock { change(&values) } }
}
