import Foundation

/// A credential store that forgets everything when the process ends; for tests and previews.
///
/// An `NSLock` rather than `Mutex`, which needs iOS 18 while the SDK supports iOS 17.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Data] = [:]

    /// An empty store.
    public init() {}

    /// Stores `value` under `key`, replacing any earlier value.
    public func store(key: String, value: Data) throws { lock.withLock { values[key] = value } }
    /// The value under `key`, or `nil` when nothing is stored.
    public func retrieve(key: String) throws -> Data? { lock.withLock { values[key] } }
    /// Removes the value under `key`; no error when there is none.
    public func remove(key: String) throws { _ = lock.withLock { values.removeValue(forKey: key) } }
}
