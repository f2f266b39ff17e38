#if canImport(Security)
import Foundation
import Security

extension KeychainOperations {
    /// The Security framework's calls over the attributes ``KeychainItemQuery`` chooses.
    static let live = KeychainOperations(
        add: { item, data in SecItemAdd(secItem(item.addition(of: data)), nil) },
        update: { item, data in SecItemUpdate(secItem(item.lookup), secItem(item.changes(to: data))) },
        copy: { item in
            var result: CFTypeRef?
            let status = SecItemCopyMatching(secItem(item.search), &result)
            return (status, result as? Data)
        },
        delete: { item in SecItemDelete(secItem(item.lookup)) })

    /// `attributes` as a `SecItem` dictionary: each key its constant, each value its Security value.
    private static func secItem(_ attributes: KeychainAttributes) -> CFDictionary {
        var dictionary: [String: Any] = [:]
        for (key, value) in attributes { dictionary[key.constant as String] = value.secValue }
        return dictionary as CFDictionary
    }
}

extension KeychainKey {
    fileprivate var constant: CFString {
        switch self {
        case .itemClass: kSecClass
        case .service: kSecAttrService
        case .account: kSecAttrAccount
        case .accessGroup: kSecAttrAccessGroup
        case .dataProtectionKeychain: kSecUseDataProtectionKeychain
        case .accessible: kSecAttrAccessible
        case .accessControl: kSecAttrAccessControl
        case .valueData: kSecValueData
        case .returnData: kSecReturnData
        case .matchLimit: kSecMatchLimit
        }
    }
}

extension KeychainValue {
    fileprivate var secValue: Any {
        switch self {
        case .genericPassword: return kSecClassGenericPassword
        case .text(let text): return text
        case .flag(let flag): return flag
        case .data(let data): return data
        case .accessibility(let accessibility): return accessibility.constant
        case .userPresence(let accessibility):
            // Valid flags never fail; if they did, `kCFNull` makes the call fail (errSecParam)
            // rather than store the token unprotected.
            if let control = SecAccessControlCreateWithFlags(nil, accessibility.constant, .userPresence, nil) { return control }
            return kCFNull as Any
        case .matchOne: return kSecMatchLimitOne
        }
    }
}

extension KeychainAccessibility {
    fileprivate var constant: CFString {
        switch self {
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
