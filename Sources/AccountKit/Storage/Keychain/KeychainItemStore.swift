import Foundation

/// The Keychain credential store's logic over ``KeychainOperations``: one generic-password item per
/// key, written add-or-update, with every `OSStatus` turned into a ``CredentialStoreError``.
///
/// ``KeychainCredentialStore`` is this over the live Security calls; tests use it over a fake.
struct KeychainItemStore: CredentialStore {
    let service: String
    let accessGroup: String?
    let accessibility: KeychainAccessibility
    let usesDataProtectionKeychain: Bool
    let operations: KeychainOperations
    /// Whether this process only reads (``CredentialStore/isReadOnly``).
    var isReadOnly = false
    /// Whether this store's items ask for the person's presence before they are read.
    var requiresUserPresence = false
    /// How the refresh token is guarded: with ``RefreshTokenProtection/userPresence``,
    /// ``refreshTokenStore`` is this store with items that ask for the person's presence.
    var refreshTokenProtection = RefreshTokenProtection.none

    /// macOS has two keychains; the data-protection one behaves as on iOS (accessibility classes,
    /// access groups, no password prompts). iOS, and Mac Catalyst, have only that one.
    static var usesDataProtectionKeychainByDefault: Bool {
        #if os(macOS)
        true
        #else
        false
        #endif
    }

    var refreshTokenStore: (any CredentialStore)? {
        guard refreshTokenProtection == .userPresence, !requiresUserPresence else { return nil }
        var guarded = self
        guarded.requiresUserPresence = true
        return guarded
    }

    func store(key: String, value: Data) throws {
        guard !isReadOnly else { throw CredentialStoreError.readOnly }
        let item = query(for: key)
        if requiresUserPresence {
            // Replaced rather than updated: changing a guarded item's data would ask for the
            // person again, right after the read that asked for the refresh.
            try remove(key: key)
            return try check(operations.add(item, value))
        }
        let added = operations.add(item, value)
        guard added == KeychainStatus.duplicateItem else { return try check(added) }
        // Updating also sets the accessibility, so an item written by an older version with
        // another class moves to this one.
        let updated = operations.update(item, value)
        // Deleted by another process between the two calls: add again.
        guard updated == KeychainStatus.itemNotFound else { return try check(updated) }
        try check(operations.add(item, value))
    }

    func retrieve(key: String) throws -> Data? {
        let (status, data) = operations.copy(query(for: key))
        if status == KeychainStatus.itemNotFound { return nil }
        try check(status)
        guard let data else { throw CredentialStoreError.failed("the Keychain item holds no data") }
        return data
    }

    func remove(key: String) throws {
        guard !isReadOnly else { throw CredentialStoreError.readOnly }
        let status = operations.delete(query(for: key))
        if status == KeychainStatus.itemNotFound { return }
        try check(status)
    }

    func query(for key: String) -> KeychainItemQuery {
        KeychainItemQuery(
            service: service, account: key, accessGroup: accessGroup, accessibility: accessibility,
            usesDataProtectionKeychain: usesDataProtectionKeychain, requiresUserPresence: requiresUserPresence)
    }

    /// Throws the error `status` stands for; only a locked device is ``CredentialStoreError/locked``.
    func check(_ status: Int32) throws {
        switch status {
        case KeychainStatus.success: return
        case KeychainStatus.interactionNotAllowed: throw CredentialStoreError.locked
        case KeychainStatus.missingEntitlement: throw CredentialStoreError.missingEntitlement
        case KeychainStatus.userCanceled, KeychainStatus.authFailed: throw CredentialStoreError.accessDenied
        default: throw CredentialStoreError.failed(KeychainStatus.describe(status))
        }
    }
}
