import Foundation

/// Server-wide settings and secrets (`settings`) and the access tokens' signing keys (`signing_keys`).
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol SettingsTransaction {
    // MARK: Signing keys and settings

    /// Every signing key, oldest first.
    func signingKeys() throws -> [SigningKeyRecord]
    func insertSigningKey(_ key: SigningKeyRecord) throws
    /// Sets `retiredAt` of every key but `kid` that is not retired yet.
    func retireSigningKeys(except kid: String, at: Date) throws

    /// A server-wide secret or setting by name.
    func setting(_ name: String) throws -> [UInt8]?
    /// Stores `value` under `name` unless one is there; returns the value in force afterwards.
    func insertSettingIfAbsent(_ name: String, value: [UInt8]) throws -> [UInt8]

    // MARK: Sealing and unsealing secrets

    /// The name of every setting.
    func settingNames() throws -> [String]
    /// Stores `value` under `name`, replacing any value there.
    func replaceSetting(_ name: String, value: [UInt8]) throws
    /// Removes a setting; returns whether there was one.
    @discardableResult func deleteSetting(_ name: String) throws -> Bool
    /// Replaces the stored seed of the key `kid`; returns whether the key exists.
    @discardableResult func replaceSigningKeySeed(kid: String, seed: [UInt8]) throws -> Bool
}
