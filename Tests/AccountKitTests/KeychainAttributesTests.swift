import Foundation
import Testing
@testable import AccountKit

/// The attributes of every `SecItem` call, chosen on every platform (the live operations only
/// translate them): what names an item, its accessibility class or its access control, and the
/// read-only and refresh-token-protection settings of the store.
@Suite struct KeychainAttributesTests {
    let value = Data("session-json".utf8)

    func query(accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, group: String? = nil, userPresence: Bool = false) -> KeychainItemQuery {
        KeychainItemQuery(
            service: "com.example.mbti", account: "https://accounts.example.com/session", accessGroup: group,
            accessibility: accessibility, usesDataProtectionKeychain: false, requiresUserPresence: userPresence)
    }

    @Test func anItemIsNamedByClassServiceAccountAndGroup() {
        #expect(query().lookup == [
            .itemClass: .genericPassword, .service: .text("com.example.mbti"), .account: .text("https://accounts.example.com/session"),
        ])
        var mac = query(group: "ABCDE12345.com.example.shared")
        mac.usesDataProtectionKeychain = true
        #expect(mac.lookup[.accessGroup] == .text("ABCDE12345.com.example.shared"))
        #expect(mac.lookup[.dataProtectionKeychain] == .flag(true))
    }

    @Test(arguments: KeychainAccessibility.allCases)
    func anAddedItemCarriesItsAccessibilityClassAndItsData(accessibility: KeychainAccessibility) {
        let added = query(accessibility: accessibility).addition(of: value)
        #expect(added[.accessible] == .accessibility(accessibility))
        #expect(added[.accessControl] == nil)
        #expect(added[.valueData] == .data(value))
        #expect(added[.service] == .text("com.example.mbti"))
        #expect(query(accessibility: accessibility).changes(to: value) == [.accessible: .accessibility(accessibility), .valueData: .data(value)])
    }

    @Test func aGuardedItemAsksForUserPresenceInsteadOfAnAccessibilityClass() {
        let added = query(accessibility: .whenPasscodeSetThisDeviceOnly, userPresence: true).addition(of: value)
        #expect(added[.accessControl] == .userPresence(.whenPasscodeSetThisDeviceOnly))
        #expect(added[.accessible] == nil, "Security takes one or the other")
    }

    @Test func aReadAsksForTheDataOfOneItem() {
        #expect(query().search == query().lookup.merging([.returnData: .flag(true), .matchLimit: .matchOne]) { $1 })
    }

    @Test func theDefaultIsAfterFirstUnlockOnThisDeviceOnly() throws {
        let keychain = FakeKeychain()
        try keychain.store().store(key: "k", value: value)
        #expect(keychain.queries.first?.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(keychain.queries.first?.addition(of: value)[.accessible] == .accessibility(.afterFirstUnlockThisDeviceOnly))
    }

    @Test func aReadOnlyStoreReadsButNeverWritesOrDeletes() throws {
        let keychain = FakeKeychain()
        try keychain.store().store(key: "session", value: value)
        let readOnly = keychain.store(readOnly: true)
        #expect(readOnly.isReadOnly)
        #expect(try readOnly.retrieve(key: "session") == value)
        #expect(throws: CredentialStoreError.readOnly) { try readOnly.store(key: "session", value: Data("other".utf8)) }
        #expect(throws: CredentialStoreError.readOnly) { try readOnly.remove(key: "session") }
        #expect(keychain.calls == [.add, .copy], "nothing but the first write and the read reached the Keychain")
        #expect(keychain.item(account: "session")?.data == value)
    }

    @Test func withUserPresenceTheRefreshTokenStoreGuardsItsItemsAndReplacesThem() throws {
        let keychain = FakeKeychain()
        let store = keychain.store(refreshTokenProtection: .userPresence)
        let guarded = try #require(store.refreshTokenStore as? KeychainItemStore)
        #expect(guarded.requiresUserPresence && guarded.refreshTokenStore == nil)
        try guarded.store(key: "k#refresh", value: Data("r1".utf8))
        try guarded.store(key: "k#refresh", value: Data("r2".utf8))
        #expect(keychain.calls == [.delete, .add, .delete, .add], "replaced, never updated (an update would ask again)")
        #expect(keychain.item(account: "k#refresh") == .init(data: Data("r2".utf8), accessibility: .afterFirstUnlockThisDeviceOnly, requiresUserPresence: true))
        #expect(keychain.queries.allSatisfy { $0.addition(of: value)[.accessControl] == .userPresence(.afterFirstUnlockThisDeviceOnly) })
        #expect(keychain.store().refreshTokenStore == nil, "off by default")
    }

    @Test func aReadOnlyFileStoreNeverWritesOrDeletes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ro-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileCredentialStore(directory: folder).store(key: "session", value: value)
        let readOnly = FileCredentialStore(directory: folder, readOnly: true)
        #expect(try readOnly.retrieve(key: "session") == value)
        #expect(throws: CredentialStoreError.readOnly) { try readOnly.store(key: "session", value: Data()) }
        #expect(throws: CredentialStoreError.readOnly) { try readOnly.remove(key: "session") }
        #expect(try FileCredentialStore(directory: folder).retrieve(key: "session") == value)
        #if !canImport(Security)
        let platform: any CredentialStore = .platformDefault(appID: "x", readOnly: true)
        #expect(platform.isReadOnly)
        #endif
    }

    @Test func readOnlyIsNotWorthWaitingForAndSaysToOpenTheApp() {
        #expect(!CredentialStoreError.readOnly.isTemporary)
        #expect(CredentialStoreError.readOnly.localizedDescription(in: .en).contains("Open the app"))
        #expect(CredentialStoreError.readOnly.localizedDescription(in: .ko).contains("앱을 열어"))
    }
}
