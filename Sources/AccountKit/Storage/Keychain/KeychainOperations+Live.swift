#if canImport(Security)
import Foundation
import Security

extension KeychainOperations {
    /// The Security framework's calls; the only code that builds `SecItem` dictionaries.
    static let live = KeychainOperations(
        add: { item, data in
            var attributes = item.lookup
            attributes[kSecValueData as String] = data
            attributes[kSecAttrAccessible as String] = item.accessibility.secValue
            return SecItemAdd(attributes as CFDictionary, nil)
        },
        update: { item, data in
            let changes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: item.accessibility.secValue,
            ]
            return SecItemUpdate(item.lookup as CFDictionary, changes as CFDictionary)
        },
        copy: { item in
            var search = item.lookup
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            return (status, result as? Data)
        },
        delete: { item in SecItemDelete(item.lookup as CFDictionary) })
}

extension KeychainItemQuery {
    /// The attributes that name the item.
    fileprivate var lookup: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        if usesDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
        return query
    }
}

extension KeychainAccessibility {
    fileprivate var secValue: CFString {
        switch self {
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        }
    }
}
#endif
