import Foundation
import Synchronization
@testable import AccountKit

/// A Keychain in memory behind the store's four closures, with the `OSStatus` answers Security
/// gives: duplicates on add, not-found on update, copy and delete, and any failure on demand.
///
/// Items are keyed by service, account and access group, like generic passwords; one fake can be
/// shared by two stores to play an app deleted and installed again (iOS keeps Keychain items).
final class FakeKeychain: Sendable {
    struct Item: Equatable {
        var data: Data
        var accessibility: KeychainAccessibility
        /// Whether reading it asks for the person's presence.
        var requiresUserPresence = false
    }

    enum Call: Equatable {
        case add, update, copy, delete
    }

    private struct State {
        var items: [String: Item] = [:]
        var calls: [(Call, KeychainItemQuery)] = []
        var failures: [Call: Int32] = [:]
        var deleteBeforeNextUpdate = false
    }

    private let state = Mutex(State())

    /// The next calls of `call` answer `status` (until cleared with `nil`).
    func fail(_ call: Call, with status: Int32?) { state.withLock { $0.failures[call] = status } }
    /// Every call answers `status` (a locked device, a missing entitlement…).
    func failEverything(with status: Int32?) {
        for call in [Call.add, .update, .copy, .delete] { fail(call, with: status) }
    }
    /// Another process deletes the item between the store's add and update.
    func deleteBeforeNextUpdate() { state.withLock { $0.deleteBeforeNextUpdate = true } }

    var calls: [Call] { state.withLock { $0.calls.map(\.0) } }
    var queries: [KeychainItemQuery] { state.withLock { $0.calls.map(\.1) } }
    func item(service: String = "mbti-playground", account: String, group: String? = nil) -> Item? {
        state.withLock { $0.items[Self.key(service, account, group)] }
    }
    func put(_ item: Item, service: String = "mbti-playground", account: String) {
        state.withLock { $0.items[Self.key(service, account, nil)] = item }
    }

    var operations: KeychainOperations {
        KeychainOperations(
            add: { [self] query, data in
                record(.add, query) { state in
                    let key = Self.key(query)
                    guard state.items[key] == nil else { return KeychainStatus.duplicateItem }
                    state.items[key] = Item(data: data, accessibility: query.accessibility, requiresUserPresence: query.requiresUserPresence)
                    return KeychainStatus.success
                }
            },
            update: { [self] query, data in
                record(.update, query) { state in
                    let key = Self.key(query)
                    if state.deleteBeforeNextUpdate {
                        state.deleteBeforeNextUpdate = false
                        state.items[key] = nil
                    }
                    guard state.items[key] != nil else { return KeychainStatus.itemNotFound }
                    state.items[key] = Item(data: data, accessibility: query.accessibility, requiresUserPresence: query.requiresUserPresence)
                    return KeychainStatus.success
                }
            },
            copy: { [self] query in
                var found: Data?
                let status = record(.copy, query) { state in
                    found = state.items[Self.key(query)]?.data
                    return found == nil ? KeychainStatus.itemNotFound : KeychainStatus.success
                }
                return (status, status == KeychainStatus.success ? found : nil)
            },
            delete: { [self] query in
                record(.delete, query) { state in
                    state.items.removeValue(forKey: Self.key(query)) == nil ? KeychainStatus.itemNotFound : KeychainStatus.success
                }
            })
    }

    /// A store over this fake, configured like the live one.
    func store(
        service: String = "mbti-playground", group: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, dataProtection: Bool = false,
        refreshTokenProtection: RefreshTokenProtection = .none, readOnly: Bool = false
    ) -> KeychainItemStore {
        KeychainItemStore(
            service: service, accessGroup: group, accessibility: accessibility,
            usesDataProtectionKeychain: dataProtection, operations: operations, isReadOnly: readOnly,
            refreshTokenProtection: refreshTokenProtection)
    }

    /// The items' accounts (keys) now, sorted.
    var accounts: [String] { state.withLock { $0.items.keys.map { String($0.split(separator: "\u{0}", omittingEmptySubsequences: false)[1]) }.sorted() } }

    private func record(_ call: Call, _ query: KeychainItemQuery, _ body: (inout State) -> Int32) -> Int32 {
        state.withLock { state in
            state.calls.append((call, query))
            if let failure = state.failures[call] { return failure }
            return body(&state)
        }
    }

    private static func key(_ query: KeychainItemQuery) -> String { key(query.service, query.account, query.accessGroup) }
    private static func key(_ service: String, _ account: String, _ group: String?) -> String {
        "\(service)\u{0}\(account)\u{0}\(group ?? "")"
    }
}
