import Foundation

/// A `SecItem` attribute the store sets, named by the Security constant it stands for.
enum KeychainKey: String, Hashable, Sendable {
    case itemClass = "kSecClass"
    case service = "kSecAttrService"
    case account = "kSecAttrAccount"
    case accessGroup = "kSecAttrAccessGroup"
    case dataProtectionKeychain = "kSecUseDataProtectionKeychain"
    case accessible = "kSecAttrAccessible"
    case accessControl = "kSecAttrAccessControl"
    case valueData = "kSecValueData"
    case returnData = "kSecReturnData"
    case matchLimit = "kSecMatchLimit"
}

/// The value of a ``KeychainKey``, as plain data; the live operations turn each into its
/// Security value.
enum KeychainValue: Hashable, Sendable {
    /// `kSecClassGenericPassword`.
    case genericPassword
    case text(String)
    case flag(Bool)
    case data(Data)
    /// The `kSecAttrAccessible…` constant of a class.
    case accessibility(KeychainAccessibility)
    /// `SecAccessControlCreateWithFlags(nil, <class>, .userPresence, nil)`.
    case userPresence(KeychainAccessibility)
    /// `kSecMatchLimitOne`.
    case matchOne
}

/// The attributes of one `SecItem` call.
typealias KeychainAttributes = [KeychainKey: KeychainValue]

extension KeychainItemQuery {
    /// What names the item (every call's query): class, service, account, group, keychain.
    var lookup: KeychainAttributes {
        var attributes: KeychainAttributes = [.itemClass: .genericPassword, .service: .text(service), .account: .text(account)]
        if let accessGroup { attributes[.accessGroup] = .text(accessGroup) }
        if usesDataProtectionKeychain { attributes[.dataProtectionKeychain] = .flag(true) }
        return attributes
    }

    /// Who may read the item: its accessibility class, or an access control that asks for the
    /// person's presence in that class (Security takes one or the other, never both).
    var protection: KeychainAttributes {
        requiresUserPresence ? [.accessControl: .userPresence(accessibility)] : [.accessible: .accessibility(accessibility)]
    }

    /// `SecItemAdd`: the lookup, the data and the protection.
    func addition(of data: Data) -> KeychainAttributes {
        lookup.merging(protection) { $1 }.merging([.valueData: .data(data)]) { $1 }
    }

    /// `SecItemUpdate`'s changes: the data and the protection, so an item an older version wrote
    /// with another class moves to this one.
    func changes(to data: Data) -> KeychainAttributes {
        protection.merging([.valueData: .data(data)]) { $1 }
    }

    /// `SecItemCopyMatching`: the lookup, asking for the data of one item.
    var search: KeychainAttributes {
        lookup.merging([.returnData: .flag(true), .matchLimit: .matchOne]) { $1 }
    }
}
