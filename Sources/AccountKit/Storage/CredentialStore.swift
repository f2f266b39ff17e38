import AccountAPI
import Foundation

/// Where the SDK keeps secrets (the session's tokens): Keychain on Apple platforms, a private file
/// on Linux, memory in tests.
///
/// Implementations throw ``CredentialStoreError`` and must tell "nothing stored" (`nil`) apart
/// from "cannot read now" (a throw, e.g. a locked Keychain), so an app never shows sign-in just
/// because the device is locked.
///
/// Most apps want `.platformDefault(appID:)`: the Keychain on Apple platforms, a private file on
/// Linux, either one named after the app so that no two apps share it.
///
/// ```swift
/// let session = SessionManager(client: client, store: .platformDefault(appID: "com.example.mbti"))
/// ```
public protocol CredentialStore: Sendable {
    /// Stores `value` under `key`, replacing any earlier value.
    func store(key: String, value: Data) throws
    /// The value under `key`, or `nil` when nothing is stored.
    func retrieve(key: String) throws -> Data?
    /// Removes the value under `key`; no error when there is none.
    func remove(key: String) throws
    /// The lock every process sharing this store takes around a refresh, or `nil` when only one
    /// process uses it. ``FileCredentialStore`` has one beside its file; a ``KeychainCredentialStore``
    /// shared with app extensions gets one in the App Group's container. `nil` by default.
    var sharedLock: CrossProcessLock? { get }
    /// Whether this process only reads the store (an app extension beside the app that owns the
    /// session): ``store(key:value:)`` and ``remove(key:)`` throw ``CredentialStoreError/readOnly``,
    /// and a ``SessionManager`` over it never writes, deletes or refreshes (it takes up the pair
    /// the app stored). `false` by default.
    var isReadOnly: Bool { get }
    /// Where the session's refresh token is kept apart from the rest, behind the person's
    /// presence (``RefreshTokenProtection/userPresence``), or `nil` (the default): in the
    /// session's own record.
    var refreshTokenStore: (any CredentialStore)? { get }
}

extension CredentialStore {
    /// No lock: the store is this process's alone.
    public var sharedLock: CrossProcessLock? { nil }
    /// Read and written.
    public var isReadOnly: Bool { false }
    /// The refresh token stays in the session's record.
    public var refreshTokenStore: (any CredentialStore)? { nil }
}

/// Why a credential store failed.
///
/// Only ``locked`` means "wait": the same read works once the device is unlocked. Every other case
/// is a failure to show (with ``localizedDescription(in:)``), because waiting will not mend it.
public enum CredentialStoreError: Error, Sendable, Hashable, LocalizedError {
    /// The store exists but cannot be read now (a locked device).
    case locked
    /// The app may not use the Keychain: it is not signed with a Keychain entitlement
    /// (`errSecMissingEntitlement`, −34018). A build problem, not the user's.
    case missingEntitlement
    /// The person declined or cancelled the system's prompt for access.
    case accessDenied
    /// This process only reads the store (``CredentialStore/isReadOnly``): the session needs a
    /// write or a refresh that only the app makes. Open the app.
    case readOnly
    /// Anything else, with a reason for logs (never the secret itself).
    case failed(String)

    /// Whether the same call may work later without anyone doing anything but unlocking the device.
    public var isTemporary: Bool { self == .locked }

    /// A sentence for the user saying what happened, in the language `localizedDescription`
    /// speaks (see ``AccountError/errorDescription``).
    public var errorDescription: String? { localizedDescription(in: ClientLanguage.current) }

    /// A sentence for the user saying what happened, in `language`.
    public func localizedDescription(in language: Language) -> String {
        let ko = language == .ko
        switch self {
        case .locked:
            return ko ? "기기가 잠겨 있어 저장된 로그인 정보를 읽을 수 없어요. 잠금을 해제한 뒤 다시 시도해 주세요."
                : "Saved sign-in details cannot be read while the device is locked. Unlock it and try again."
        case .missingEntitlement:
            return ko ? "이 앱은 키체인을 사용할 권한이 없어 로그인 정보를 저장할 수 없어요 (키체인 권한 누락)."
                : "This app is not allowed to use the Keychain (a missing entitlement), so it cannot keep you signed in."
        case .accessDenied:
            return ko ? "저장된 로그인 정보에 대한 접근이 거부되었어요. 다시 로그인해 주세요."
                : "Access to the saved sign-in details was denied. Please log in again."
        case .readOnly:
            return ko ? "여기서는 로그인을 갱신할 수 없어요. 앱을 열어 주세요."
                : "Your sign-in cannot be renewed from here. Open the app."
        case .failed(let reason):
            return ko ? "저장된 로그인 정보를 사용할 수 없어요 (\(reason))."
                : "Saved sign-in details cannot be used on this device (\(reason))."
        }
    }
}
