#if canImport(Security)
import Foundation
import Security

/// A credential store in the Keychain: one generic-password item per key, readable after the
/// first unlock on this device only (never synced or moved to another device by a backup).
///
/// A locked Keychain (`errSecInteractionNotAllowed`) throws ``CredentialStoreError/locked``, so an
/// app shows neither sign-in nor profile until the device is unlocked, instead of signing out.
///
/// ```swift
/// let store = KeychainCredentialStore(accessGroup: "ABCDE12345.com.example.shared")
/// let session = SessionManager(client: AccountClient(), store: store)
/// ```
public final class KeychainCredentialStore: CredentialStore {
    /// `kSecAttrService` of every item.
    public let service: String
    /// `kSecAttrAccessGroup` of every item, to share them between apps of one team.
    public let accessGroup: String?

    /// - Parameters:
    ///   - service: the items' service name.
    ///   - accessGroup: a Keychain access group, or `nil` for the app's default group.
    public init(service: String = "mbti-playground", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func store(key: String, value: Data) throws {
        var attributes = query(for: key)
        attributes[kSecValueData as String] = value
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let added = SecItemAdd(attributes as CFDictionary, nil)
        guard added == errSecDuplicateItem else { return try check(added) }
        let changes: [String: Any] = [
            kSecValueData as String: value,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        try check(SecItemUpdate(query(for: key) as CFDictionary, changes as CFDictionary))
    }

    public func retrieve(key: String) throws -> Data? {
        var search = query(for: key)
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try check(status)
        guard let data = result as? Data else { throw CredentialStoreError.failed("the Keychain item holds no data") }
        return data
    }

    public func remove(key: String) throws {
        let status = SecItemDelete(query(for: key) as CFDictionary)
        if status == errSecItemNotFound { return }
        try check(status)
    }

    /// The attributes that name the item for `key`.
    private func query(for key: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
        // No kSecUseDataProtectionKeychain: on macOS it needs a signed app with entitlements, and
        // unsigned tools (tests, the terminal client) would get errSecMissingEntitlement.
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func check(_ status: OSStatus) throws {
        switch status {
        case errSecSuccess: return
        case errSecInteractionNotAllowed: throw CredentialStoreError.locked
        default:
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            throw CredentialStoreError.failed("Keychain: \(message)")
        }
    }
}
#endif
