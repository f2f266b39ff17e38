import Foundation
import Testing
@testable import AccountKit

/// The Keychain store's decisions over a fake behind its four closures: add-or-update, the
/// accessibility class, not-found, a locked device, and what every other status becomes.
@Suite struct KeychainStoreTests {
    let value = Data("session-json".utf8)

    @Test func aFirstStoreAddsTheItemAfterFirstUnlockOnThisDeviceOnly() throws {
        let keychain = FakeKeychain()
        try keychain.store().store(key: "session", value: value)
        #expect(keychain.calls == [.add])
        #expect(keychain.item(account: "session") == .init(data: value, accessibility: .afterFirstUnlockThisDeviceOnly))
        let query = try #require(keychain.queries.first)
        #expect(query.service == "mbti-playground" && query.account == "session" && query.accessGroup == nil)
    }

    @Test func storingAgainUpdatesTheItemAndItsAccessibility() throws {
        let keychain = FakeKeychain()
        // An item an older version wrote with a class that is readable only while unlocked.
        keychain.put(.init(data: Data("old".utf8), accessibility: .whenUnlockedThisDeviceOnly), account: "session")
        try keychain.store().store(key: "session", value: value)
        #expect(keychain.calls == [.add, .update], "a duplicate add is answered by an update")
        #expect(keychain.item(account: "session") == .init(data: value, accessibility: .afterFirstUnlockThisDeviceOnly))
    }

    @Test func anItemDeletedBetweenAddAndUpdateIsAddedAgain() throws {
        let keychain = FakeKeychain()
        keychain.put(.init(data: Data("old".utf8), accessibility: .afterFirstUnlockThisDeviceOnly), account: "session")
        keychain.deleteBeforeNextUpdate()
        try keychain.store().store(key: "session", value: value)
        #expect(keychain.calls == [.add, .update, .add])
        #expect(keychain.item(account: "session")?.data == value)
    }

    @Test func nothingStoredReadsAsNilAndRemovingNothingIsFine() throws {
        let store = FakeKeychain().store()
        #expect(try store.retrieve(key: "session") == nil)
        try store.remove(key: "session")
    }

    @Test func aStoredValueReadsBackAndRemoveForgetsIt() throws {
        let keychain = FakeKeychain()
        let store = keychain.store()
        try store.store(key: "session", value: value)
        #expect(try store.retrieve(key: "session") == value)
        try store.remove(key: "session")
        #expect(keychain.item(account: "session") == nil)
        #expect(try store.retrieve(key: "session") == nil)
    }

    @Test func everyCallNamesTheAccessGroupAndTheDataProtectionKeychainWhenConfigured() throws {
        let keychain = FakeKeychain()
        let store = keychain.store(service: "svc", group: "TEAM.shared", dataProtection: true)
        try store.store(key: "k", value: value)
        try store.store(key: "k", value: value)
        _ = try store.retrieve(key: "k")
        try store.remove(key: "k")
        #expect(keychain.calls == [.add, .add, .update, .copy, .delete])
        #expect(keychain.queries.allSatisfy { $0.usesDataProtectionKeychain && $0.accessGroup == "TEAM.shared" && $0.service == "svc" })
    }

    @Test func theDataProtectionKeychainIsTheDefaultOnMacOSOnly() {
        #if os(macOS)
        #expect(KeychainItemStore.usesDataProtectionKeychainByDefault)
        #else
        #expect(!KeychainItemStore.usesDataProtectionKeychainByDefault)
        #endif
    }

    @Test(arguments: [FakeKeychain.Call.add, .copy, .delete])
    func aLockedDeviceIsLockedForEveryCall(call: FakeKeychain.Call) throws {
        let keychain = FakeKeychain()
        let store = keychain.store()
        try store.store(key: "session", value: value)
        keychain.fail(call, with: KeychainStatus.interactionNotAllowed)
        #expect(throws: CredentialStoreError.locked) {
            switch call {
            case .add, .update: try store.store(key: "session", value: value)
            case .copy: _ = try store.retrieve(key: "session")
            case .delete: try store.remove(key: "session")
            }
        }
    }

    @Test(arguments: [
        (KeychainStatus.interactionNotAllowed, CredentialStoreError.locked),
        (KeychainStatus.missingEntitlement, .missingEntitlement),
        (KeychainStatus.userCanceled, .accessDenied),
        (KeychainStatus.authFailed, .accessDenied),
        (KeychainStatus.notAvailable, .failed("Keychain: no keychain is available, OSStatus -25291")),
        (KeychainStatus.decode, .failed("Keychain: the item could not be decoded, OSStatus -26275")),
        (Int32(-99_999), .failed("Keychain: OSStatus -99999")),
    ])
    func statusesMapToErrors(status: Int32, error: CredentialStoreError) {
        let keychain = FakeKeychain()
        keychain.failEverything(with: status)
        let store = keychain.store()
        #expect(throws: error) { _ = try store.retrieve(key: "session") }
        #expect(throws: error) { try store.store(key: "session", value: value) }
        #expect(throws: error) { try store.remove(key: "session") }
    }

    @Test func onlyALockedDeviceIsWorthWaitingFor() {
        #expect(CredentialStoreError.locked.isTemporary)
        for error in [CredentialStoreError.missingEntitlement, .accessDenied, .failed("x")] {
            #expect(!error.isTemporary, "\(error) must be shown, not waited for")
        }
    }

    @Test func failuresSayWhatHappenedInBothLanguages() {
        #expect(CredentialStoreError.missingEntitlement.localizedDescription(in: .en).contains("missing entitlement"))
        #expect(CredentialStoreError.missingEntitlement.localizedDescription(in: .ko).contains("키체인"))
        #expect(CredentialStoreError.locked.localizedDescription(in: .en).contains("Unlock"))
        #expect(CredentialStoreError.accessDenied.localizedDescription(in: .en).contains("denied"))
        #expect(AccountError.storage(.missingEntitlement).localizedDescription(in: .en) == CredentialStoreError.missingEntitlement.localizedDescription(in: .en))
    }

    @Test func aCopyWithoutDataIsAFailureNotNothing() {
        let keychain = FakeKeychain()
        let store = KeychainItemStore(
            service: "s", accessGroup: nil, accessibility: .afterFirstUnlockThisDeviceOnly, usesDataProtectionKeychain: false,
            operations: KeychainOperations(add: keychain.operations.add, update: keychain.operations.update,
                                           copy: { _ in (KeychainStatus.success, nil) }, delete: keychain.operations.delete))
        #expect(throws: CredentialStoreError.failed("the Keychain item holds no data")) { _ = try store.retrieve(key: "session") }
    }

    @Test func aMissingEntitlementAtRestoreIsAStorageErrorTheAppShows() async {
        let keychain = FakeKeychain()
        keychain.failEverything(with: KeychainStatus.missingEntitlement)
        let manager = SessionManager(client: AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!), store: keychain.store())
        await #expect(throws: AccountError.storage(.missingEntitlement)) { try await manager.restore() }
        #expect(await manager.state == .unknown)
        #expect(AccountNavigation.root(for: .unknown, restoreFailure: .missingEntitlement) == .logIn)
        #expect(AccountNavigation.root(for: .unknown, restoreFailure: .locked) == .waiting)
    }
}
