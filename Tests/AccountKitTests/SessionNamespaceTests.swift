import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// Defaults that cannot collide: sessions separated by namespace and key, a store per app.
@Suite struct SessionNamespaceTests {
    static func pair(_ name: String) -> TokenPair {
        let user = User(
            id: UUID(), username: name, email: "\(name)@example.com", emailVerified: true, mbti: .isfj,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        return TokenPair(access: "access-\(name)", refresh: "refresh-\(name)", expiresIn: 900, refreshExpiresIn: 3600, user: user)
    }

    @Test func twoManagersWithDifferentNamespacesInOneStoreDoNotSeeEachOthersSession() async throws {
        let store = InMemoryCredentialStore()
        let client = AccountClient(baseURL: offlineURL)
        let work = SessionManager(client: client, store: store, namespace: "work")
        let home = SessionManager(client: client, store: store, namespace: "home")
        #expect(work.credentialKey != home.credentialKey)

        try await work.begin(with: Self.pair("worker"))
        #expect(try await home.restore() == .signedOut, "home sees nothing of work's session")
        try await home.begin(with: Self.pair("homer"))

        // A relaunch: new managers read each their own session back.
        let workAgain = SessionManager(client: client, store: store, namespace: "work")
        let homeAgain = SessionManager(client: client, store: store, namespace: "home")
        #expect(try await workAgain.restore().user?.username == "worker")
        #expect(try await homeAgain.restore().user?.username == "homer")

        // Logging one out (the server is unreachable, so it throws) leaves the other alone.
        _ = try? await workAgain.logOut()
        #expect(try store.retrieve(key: work.credentialKey) == nil)
        #expect(try await SessionManager(client: client, store: store, namespace: "home").restore().user?.username == "homer")
    }

    @Test func theStorageKeyNamesTheSessionInsideItsNamespace() async throws {
        let store = InMemoryCredentialStore()
        let client = AccountClient(baseURL: offlineURL)
        let first = SessionManager(client: client, store: store, namespace: "app", storageKey: "first")
        let second = SessionManager(client: client, store: store, namespace: "app", storageKey: "second")
        #expect(first.credentialKey == "app/first" && second.credentialKey == "app/second")
        try await first.begin(with: Self.pair("one"))
        #expect(try await second.restore() == .signedOut)
        #expect(try store.retrieve(key: "app/first") != nil)
    }

    @Test func theDefaultNamespaceIsTheServer() async throws {
        let store = InMemoryCredentialStore()
        let staging = SessionManager(client: AccountClient(baseURL: URL(string: "https://Staging.Example.com/")!), store: store)
        let production = SessionManager(client: AccountClient(baseURL: URL(string: "https://accounts.example.com")!), store: store)
        let local = SessionManager(client: AccountClient(baseURL: URL(string: "http://127.0.0.1:8000")!), store: store)
        #expect(staging.namespace == "https://staging.example.com")
        #expect(production.namespace == "https://accounts.example.com")
        #expect(local.credentialKey == "http://127.0.0.1:8000/session")

        try await staging.begin(with: Self.pair("tester"))
        #expect(try await production.restore() == .signedOut, "a staging session never reaches production")
    }

    #if !canImport(Security)
    @Test func theLinuxPlatformStoreIsAPrivateFileNamedAfterTheApp() throws {
        let store: FileCredentialStore = .platformDefault(appID: "com.example.quickstart")
        #expect(store.directory.lastPathComponent == "com.example.quickstart")
        #expect(store.directory != FileCredentialStore.defaultDirectory(appID: "mbti-playground"), "not the terminal client's")

        let folder = FileCredentialStore(appID: "com.example.quickstart", environment: ["XDG_CONFIG_HOME": "/tmp/xdg"])
        #expect(folder.fileURL.path == "/tmp/xdg/com.example.quickstart/credentials.json")
        #expect(FileCredentialStore.defaultDirectory(appID: "../evil/app", environment: ["HOME": "/tmp/h"]).path == "/tmp/h/.config/_.._evil_app")
        #expect(FileCredentialStore.defaultDirectory(appID: "", environment: ["HOME": "/tmp/h"]).path == "/tmp/h/.config/_")
    }
    #endif
}
