import Synchronization

/// The hook a store calls after a committed write that queued mail (``AccountStore/whenMailQueued(_:)``).
public final class MailQueuedHook: Sendable {
    private let hook = Mutex<(@Sendable () -> Void)?>(nil)

    public init() {}

    /// Replaces the hook.
    public func set(_ hook: @escaping @Sendable () -> Void) {
        self.hook.withLock { $0 = hook }
    }

    /// Calls the hook when `queued` (a committed transaction queued mail).
    public func committed(queued: Bool) {
        guard queued, let hook = hook.withLock({ $0 }) else { return }
        hook()
    }
}
