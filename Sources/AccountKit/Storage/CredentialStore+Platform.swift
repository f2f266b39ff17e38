import Foundation

#if canImport(Security)
extension CredentialStore where Self == KeychainCredentialStore {
    /// The store an app keeps its session in on this platform: here the Keychain, with `appID`
    /// as the items' service, so no other app's items are touched.
    ///
    /// ```swift
    /// // The app and its widget, sharing one session; the widget only reads it.
    /// let app = SessionManager(client: client, store: .platformDefault(
    ///     appID: "com.example.mbti", accessGroup: "ABCDE12345.com.example.mbti.shared", appGroup: "group.com.example.mbti"))
    /// let widget = SessionManager(client: client, store: .platformDefault(
    ///     appID: "com.example.mbti", accessGroup: "ABCDE12345.com.example.mbti.shared", readOnly: true))
    /// ```
    ///
    /// - Parameters:
    ///   - appID: names the app's items; its bundle identifier is a good choice.
    ///   - accessGroup: a Keychain access group the app and its extensions list in their Keychain
    ///     Sharing entitlement (with the team's prefix), to share the session; `nil` for the app's own.
    ///   - appGroup: with `accessGroup`, an App Group the app and its extensions belong to: its
    ///     container holds the lock around a refresh (``CrossProcessLock/appGroup(_:fileName:)``).
    ///   - accessibility: when the items can be read; after the first unlock, on this device only, by default.
    ///   - refreshTokenProtection: ``RefreshTokenProtection/userPresence`` asks for Face ID, Touch
    ///     ID or the passcode at every refresh.
    ///   - readOnly: for an extension that only uses the app's session (``CredentialStore/isReadOnly``).
    public static func platformDefault(
        appID: String, accessGroup: String? = nil, appGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        refreshTokenProtection: RefreshTokenProtection = .none, readOnly: Bool = false
    ) -> KeychainCredentialStore {
        KeychainCredentialStore(
            service: appID, accessGroup: accessGroup, accessibility: accessibility,
            sharedLock: appGroup.flatMap { CrossProcessLock.appGroup($0) },
            refreshTokenProtection: refreshTokenProtection, readOnly: readOnly)
    }
}
#else
extension CredentialStore where Self == FileCredentialStore {
    /// The store an app keeps its session in on this platform: here a private file in
    /// `$XDG_CONFIG_HOME/<appID>/` (or `~/.config/<appID>/`), so no other program's file is touched
    /// (the terminal client keeps its own in `mbti-playground`). On Apple platforms it is the
    /// Keychain, with `appID` as the service (and Keychain options: access group, accessibility,
    /// refresh-token protection). Programs that share the file share the session; its lock sits
    /// beside it.
    ///
    /// - Parameters:
    ///   - appID: names the app's folder; a reverse-DNS name or the program's name. A `/`
    ///     in it is replaced, so the folder is always one level under the config folder.
    ///   - readOnly: for a program that only uses another's session (``CredentialStore/isReadOnly``).
    public static func platformDefault(appID: String, readOnly: Bool = false) -> FileCredentialStore {
        FileCredentialStore(appID: appID, readOnly: readOnly)
    }
}
#endif
