import Foundation

/// The four Keychain calls the store makes (`SecItemAdd`, `SecItemUpdate`, `SecItemCopyMatching`,
/// `SecItemDelete`), as closures over plain values.
///
/// Only ``live`` (Apple platforms) touches Security, and it only translates the attributes that
/// ``KeychainItemQuery`` chooses (``KeychainAttributes``) into `SecItem` dictionaries; tests pass
/// closures over a dictionary, so the store's decisions (add or update, not found, locked, every
/// error) and the attributes of every call are tested on Linux too.
struct KeychainOperations: Sendable {
    /// Adds a new item holding the data; `errSecDuplicateItem` when one exists.
    var add: @Sendable (KeychainItemQuery, Data) -> Int32
    /// Replaces an existing item's data and accessibility; `errSecItemNotFound` when there is none.
    var update: @Sendable (KeychainItemQuery, Data) -> Int32
    /// The item's data; `errSecItemNotFound` when there is none.
    var copy: @Sendable (KeychainItemQuery) -> (status: Int32, data: Data?)
    /// Deletes the item; `errSecItemNotFound` when there is none.
    var delete: @Sendable (KeychainItemQuery) -> Int32
}

/// Which generic-password item a call is about, and the attributes it is written with.
struct KeychainItemQuery: Sendable, Hashable {
    /// `kSecAttrService`.
    var service: String
    /// `kSecAttrAccount`: the credential store's key.
    var account: String
    /// `kSecAttrAccessGroup`, or `nil` for the app's default group.
    var accessGroup: String?
    /// `kSecAttrAccessible` of an added or updated item.
    var accessibility: KeychainAccessibility
    /// `kSecUseDataProtectionKeychain` (macOS: the iOS-style keychain instead of the file-based one).
    var usesDataProtectionKeychain: Bool
    /// Whether the item is readable only after Face ID, Touch ID or the passcode
    /// (`kSecAttrAccessControl` with `.userPresence`, in place of `kSecAttrAccessible`).
    var requiresUserPresence = false
}

/// The `OSStatus` values of Security's `SecBase.h` the store tells apart (checked against the iOS
/// SDK; declared here so the logic compiles where Security does not exist).
enum KeychainStatus {
    static let success: Int32 = 0
    static let userCanceled: Int32 = -128
    static let notAvailable: Int32 = -25291
    static let authFailed: Int32 = -25293
    static let duplicateItem: Int32 = -25299
    static let itemNotFound: Int32 = -25300
    static let interactionNotAllowed: Int32 = -25308
    static let decode: Int32 = -26275
    static let missingEntitlement: Int32 = -34018
    static let param: Int32 = -50

    /// A short name for logs: what the status means, with its number.
    static func describe(_ status: Int32) -> String {
        let meaning: String? =
            switch status {
            case notAvailable: "no keychain is available"
            case decode: "the item could not be decoded"
            case param: "a parameter was not valid"
            case duplicateItem: "the item already exists"
            default: nil
            }
        return "Keychain: \(meaning.map { "\($0), " } ?? "")OSStatus \(status)"
    }
}
