import Foundation
import Testing
@testable import AccountKit

/// The Linux store: private modes from creation, atomic replacement, persistence, removal.
@Suite struct FileCredentialStoreTests {
    /// A folder two levels below a new temporary root, so the store creates its parents too.
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("filestore-\(UUID().uuidString)")

    private func freshFolder() -> URL {
        root.appendingPathComponent("nested/mbti-playground")
    }

    private func cleanUp() { try? FileManager.default.removeItem(at: root) }

    private func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func theFileIs0600AndItsFolder0700() async throws {
        defer { cleanUp() }
        let store = FileCredentialStore(directory: freshFolder())
        try store.store(key: "session", value: Data("secret".utf8))
        #expect(try mode(of: store.fileURL) == 0o600)
        #expect(try mode(of: store.directory) == 0o700)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == ["credentials.json"])
    }

    @Test func nothingStoredReadsAsNil() throws {
        defer { cleanUp() }
        let store = FileCredentialStore(directory: freshFolder())
        #expect(try store.retrieve(key: "session") == nil)
        try store.remove(key: "session")
    }

    @Test func valuesSurviveANewStoreOnTheSameFileAndRemoveForgetsThem() throws {
        defer { cleanUp() }
        let folder = freshFolder()
        let bytes = Data((0...255).map { UInt8($0) })
        try FileCredentialStore(directory: folder).store(key: "session", value: bytes)
        try FileCredentialStore(directory: folder).store(key: "other", value: Data("x".utf8))

        let reopened = FileCredentialStore(directory: folder)
        #expect(try reopened.retrieve(key: "session") == bytes)
        try reopened.remove(key: "session")
        #expect(try FileCredentialStore(directory: folder).retrieve(key: "session") == nil)
        #expect(try FileCredentialStore(directory: folder).retrieve(key: "other") == Data("x".utf8))
        #expect(try mode(of: reopened.fileURL) == 0o600)
    }

    @Test func theFileIsAJSONObjectOfBase64Values() throws {
        defer { cleanUp() }
        let store = FileCredentialStore(directory: freshFolder(), fileName: "c.json")
        try store.store(key: "session", value: Data("hello".utf8))
        let object = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: store.fileURL))
        #expect(object == ["session": Data("hello".utf8).base64EncodedString()])
    }

    @Test func aReaderNeverSeesAPartialFileWhileWritersHammerIt() async throws {
        defer { cleanUp() }
        let folder = freshFolder()
        let writer = FileCredentialStore(directory: folder)
        try writer.store(key: "session", value: Data(repeating: 0, count: 20_000))
        // A second instance has its own lock, like another process: only the rename protects it.
        let reader = FileCredentialStore(directory: folder)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for writerIndex in 0..<4 {
                group.addTask {
                    for round in 0..<100 {
                        let size = 1_000 + (round * 37 + writerIndex * 1_000) % 30_000
                        try writer.store(key: "session", value: Data(repeating: UInt8(writerIndex), count: size))
                    }
                    return 0
                }
            }
            group.addTask {
                var failures = 0
                for _ in 0..<400 {
                    do {
                        let value = try #require(try reader.retrieve(key: "session"))
                        // A whole value is one repeated byte.
                        if Set(value).count != 1 { failures += 1 }
                    } catch {
                        failures += 1
                    }
                }
                return failures
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["credentials.json"])
    }

    @Test func theDefaultFolderFollowsXDGConfigHome() {
        #expect(FileCredentialStore.defaultDirectory(appID: "mbti-playground", environment: ["XDG_CONFIG_HOME": "/tmp/cfg"]).path == "/tmp/cfg/mbti-playground")
        #expect(FileCredentialStore.defaultDirectory(appID: "mbti-playground", environment: ["XDG_CONFIG_HOME": "relative"]).path.hasSuffix("/.config/mbti-playground"))
        #expect(FileCredentialStore.defaultDirectory(appID: "mbti-playground", environment: [:]).path.hasSuffix("/.config/mbti-playground"))
    }
}

/// Where the store lives by default: `$XDG_CONFIG_HOME`, else `$HOME/.config`, both from the environment.
@Suite struct FileCredentialStoreLocationTests {
    @Test func xdgConfigHomeWins() {
        let url = FileCredentialStore.defaultDirectory(appID: "mbti-playground", environment: ["XDG_CONFIG_HOME": "/tmp/xdg", "HOME": "/tmp/home"])
        #expect(url.path == "/tmp/xdg/mbti-playground")
    }

    @Test func homeFromTheEnvironmentIsUsedNotThePasswordDatabase() {
        let url = FileCredentialStore.defaultDirectory(appID: "mbti-playground", environment: ["HOME": "/tmp/somebody"])
        #expect(url.path == "/tmp/somebody/.config/mbti-playground")
    }

    @Test func relativeValuesAreIgnoredAsTheXDGSpecSays() {
        let url = FileCredentialStore.defaultDirectory(appID: "mbti-playground", environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/tmp/h"])
        #expect(url.path == "/tmp/h/.config/mbti-playground")
    }
}
