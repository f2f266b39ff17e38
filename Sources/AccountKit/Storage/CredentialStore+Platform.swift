import Foundation

#if canImport(Security)
extension CredentialStore where Self == KeychainCredentialStore {
    /// The store an app keeps its session in on this platform: here the Keychain, with `appID`
    /// as the items' service, so no other app's items are touched.
    ///
    /// - Parameter appID: names the app's items; its bundle identifier is a good choice.
    public static func platformDefault(appID: String) -> KeychainCredentialStore {
        KeychainCredentialStore(service: appID)
    }
}
#else
extension CredentialStore where Self == FileCredentialStore {
    /// The store an app keeps its session in on this platform: here a private file in
    /// `$XDG_CONFIG_HOME/<appID>/` (or `~/.config/<appID>/`), so no other program's file is touched
    /// (the terminal client keeps its own in `mbti-playground`). On Apple platforms it is the
    /// Keychain, with `appID` as the service.
    ///
    /// - Parameter appID: names the app's folder; a reverse-DNS name or the program's name. A `/`
    ///   in it is replaced, so the folder is always one level under the config folder.
    public static func platformDefault(appID: String) -> FileCredentialStore {
        FileCredentialStore(appID: appID)
    }
}
#endif
