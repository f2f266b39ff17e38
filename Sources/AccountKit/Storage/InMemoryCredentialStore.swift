import Foundation
import Synchronization

/// A credential store that forgets everything when the process ends; for tests and previews.
public final class InMemoryCredentialStore: CredentialStore {
    private let values = Mutex<[String: Data]>([:])

    public init() {}

    public func store(key: String, value: Data) throws { values.withLock { $0[key] = value } }
    public func retrieve(key: String) throws -> Data? { values.withLock { $0[key] } }
    public func remove(key: String) throws { _ = values.withLock { $0.removeValue(forKey: key) } }
}
