#if canImport(Security)
import Foundation
import Security

/// A credential store in the Keychain: one generic-password item per key, readable after the
/// first unlock on this device only (never synced or moved to another device by a backup) unless
/// another ``KeychainAccessibility`` is chosen.
///
/// A locked Keychain (`errSecInteractionNotAllowed`) throws ``CredentialStoreError/locked``, so an
/// app shows neither sign-in nor profile until the device is unlocked, instead of signing out. A
/// missing entitlement (−34018) or a denied prompt throws an error the app shows instead of waiting.
/// On macOS the items live in the data-protection keychain (`kSecUseDataProtectionKeychain`), as on
/// iOS; that needs a signed app with a Keychain entitlement.
///
/// Keychain items outlive the app: iOS keeps them when the app is deleted, so a reinstalled app
/// can find the session of an earlier installation. ``AccountLaunch`` checks such a session with
/// the server on the first launch after an install.
///
/// ```swift
/// let store = KeychainCredentialStore(service: "com.example.mbti", accessGroup: "ABCDE12345.com.example.shared")
/// let session = SessionManager(client: client, store: store)
/// ```
public final class KeychainCredentialStore: CredentialStore {
    /// `kSecAttrService` of every item.
    public let service: String
    /// `kSecAttrAccessGroup` of every item, to share them between apps of one team.
    public let accessGroup: String?
    /// The lock the app and its extensions take around a refresh, when they share the items
    /// (``CrossProcessLock/appGroup(_:fileName:)``); `nil` for an app alone.
    public let sharedLock: CrossProcessLock?
    private let items: KeychainItemStore

    /// - Parameters:
    ///   - service: the items' service name; the app's bundle identifier by default, so two apps
    ///     (or an app and its extension with another identifier) never share items by accident.
    ///   - accessGroup: a Keychain access group, or `nil` for the app's default group.
    ///   - accessibility: when the items can be read; after the first unlock by default, so a
    ///     background refresh works while the device is locked.
    ///   - sharedLock: with an `accessGroup` the app's extensions share, a lock in their App
    ///     Group's container (``CrossProcessLock/appGroup(_:fileName:)``), so that only one of them
    ///     refreshes at a time and the others take up the pair it stored.
    ///   - refreshTokenProtection: ``RefreshTokenProtection/userPresence`` keeps the refresh token
    ///     in an item of its own that asks for Face ID, Touch ID or the passcode at every refresh.
    ///   - readOnly: for an extension that only uses the app's session: it never writes, deletes
    ///     or refreshes (``CredentialStore/isReadOnly``).
    public init(
        service: String = KeychainCredentialStore.defaultService, accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, sharedLock: CrossProcessLock? = nil,
        refreshTokenProtection: RefreshTokenProtection = .none, readOnly: Bool = false
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.sharedLock = sharedLock
        items = KeychainItemStore(
            service: service, accessGroup: accessGroup, accessibility: accessibility,
            usesDataProtectionKeychain: KeychainItemStore.usesDataProtectionKeychainByDefault, operations: .live,
            isReadOnly: readOnly, refreshTokenProtection: refreshTokenProtection)
    }

    /// Whether this process only reads the items.
    public var isReadOnly: Bool { items.isReadOnly }

    /// The items that ask for the person's presence, with ``RefreshTokenProtection/userPresence``.
    public var refreshTokenStore: (any CredentialStore)? { items.refreshTokenStore }

    /// The app's bundle identifier, or its process name where there is none.
    public static var defaultService: String { Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName }

    /// Stores `value` under `key`, replacing any earlier value.
    public func store(key: String, value: Data) throws { try items.store(key: key, value: value) }

    /// The value under `key`, or `nil` when nothing is stored.
    public func retrieve(key: String) throws -> Data? { try items.retrieve(key: key) }

    /// Removes the value under `key`; no error when there is none.
    public func remove(key: String) throws { try items.remove(key: key) }
}
#endif
