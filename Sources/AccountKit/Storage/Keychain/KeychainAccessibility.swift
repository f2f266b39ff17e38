/// When a Keychain item can be read (`kSecAttrAccessible`).
///
/// The `ThisDeviceOnly` classes never leave the device: no backup or new phone carries them, so a
/// session is signed in once per device. The others move to a new device with an encrypted backup.
public enum KeychainAccessibility: Sendable, Hashable, CaseIterable {
    /// After the first unlock since boot, until the next restart, on this device only; a background
    /// refresh works while the device is locked. The default.
    case afterFirstUnlockThisDeviceOnly
    /// After the first unlock since boot; moves to a new device with an encrypted backup.
    case afterFirstUnlock
    /// Only while the device is unlocked, on this device only (no background refresh while locked).
    case whenUnlockedThisDeviceOnly
    /// Only while the device is unlocked; moves to a new device with an encrypted backup.
    case whenUnlocked
    /// Only while unlocked, and only on a device with a passcode: removing the passcode deletes the item.
    case whenPasscodeSetThisDeviceOnly
}

/// How the Keychain guards the session's refresh token, the one secret that renews the session.
public enum RefreshTokenProtection: Sendable, Hashable {
    /// Like the rest of the session: readable as its ``KeychainAccessibility`` says.
    case none
    /// Kept in an item of its own that is readable only after Face ID, Touch ID or the device
    /// passcode (`SecAccessControl` with `.userPresence`). The access token and the user stay
    /// readable without a prompt, so launching and calling the API ask nothing; every refresh
    /// (after the access token's lifetime, 15 minutes by default) asks once. A cancelled prompt
    /// fails that refresh with ``CredentialStoreError/accessDenied`` and keeps the session.
    case userPresence
}
