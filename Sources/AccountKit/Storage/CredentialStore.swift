import Foundation

/// Where the SDK keeps secrets (the session's tokens): Keychain on Apple platforms, a private file
/// on Linux, memory in tests.
///
/// Implementations throw ``CredentialStoreError`` and must tell "nothing stored" (`nil`) apart
/// from "cannot read now" (a throw, e.g. a locked Keychain), so an app never shows sign-in just
/// because the device is locked.
public protocol CredentialStore: Sendable {
    /// Stores `value` under `key`, replacing any earlier value.
    func store(key: String, value: Data) throws
    /// The value under `key`, or `nil` when nothing is stored.
    func retrieve(key: String) throws -> Data?
    /// Removes the value under `key`; no error when there is none.
    func remove(key: String) throws
}

/// Why a credential store failed.
public enum CredentialStoreError: Error, Sendable, Equatable {
    /// The store exists but cannot be read now (a locked device).
    case locked
    /// Anything else, with a reason for logs (never the secret itself).
    case failed(String)
}
