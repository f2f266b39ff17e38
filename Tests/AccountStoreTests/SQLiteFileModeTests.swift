import AccountStore
import AccountStoreSQLite
import Foundation
import Testing

/// The database and SQLite's files beside it are 0600 whatever the umask (set for the moment of
/// each test, one at a time: the umask is the process's), and looser ones are tightened at open.
@Suite(.serialized) struct SQLiteFileModeTests {
    func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    @Test(arguments: [mode_t(0o000), 0o022, 0o002])
    func newFilesAre0600(umaskValue: mode_t) async throws {
        try await TemporaryDatabase.with { path in
            let old = umask(umaskValue)
            let store: SQLiteAccountStore
            do {
                defer { umask(old) }
                store = try SQLiteAccountStore(path: path)
                try await store.migrate()
                try await store.write { try $0.insertUser(Fixture.user("Mina")) }
                #expect(try await store.read { try $0.userCount() } == 1)
            }
            #expect(store.tightenedFiles.isEmpty)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(mode(file) == 0o600, "\(file)")
            }
            await store.close()
            #expect(mode(path) == 0o600)
        }
    }

    @Test func looseFilesAreTightenedAndReported() async throws {
        try await TemporaryDatabase.with { path in
            let first = try SQLiteAccountStore(path: path)
            try await first.migrate()
            try await first.write { try $0.insertUser(Fixture.user("Mina")) }
            // As an older build (or a copy made with cp) would have left them.
            chmod(path, 0o644)
            chmod(path + "-wal", 0o664)
            chmod(path + "-shm", 0o666)
            #expect(FileManager.default.createFile(atPath: path + "-journal", contents: nil, attributes: [.posixPermissions: 0o640]))
            defer { try? FileManager.default.removeItem(atPath: path + "-journal") }
            let second = try SQLiteAccountStore(path: path)
            #expect(second.tightenedFiles == [
                .init(path: path, previousMode: 0o644), .init(path: path + "-wal", previousMode: 0o664),
                .init(path: path + "-shm", previousMode: 0o666), .init(path: path + "-journal", previousMode: 0o640),
            ])
            for suffix in ["", "-wal", "-shm", "-journal"] {
                #expect(mode(path + suffix) == 0o600, "\(suffix)")
            }
            #expect(try await second.read { try $0.userCount() } == 1)
            // Private already: nothing to report the next time.
            let third = try SQLiteAccountStore(path: path)
            #expect(third.tightenedFiles.isEmpty)
            await third.close()
            await second.close()
            await first.close()
        }
    }

    @Test func ownerOnlyModesAreLeftAlone() async throws {
        try await TemporaryDatabase.with { path in
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
            let store = try SQLiteAccountStore(path: path)
            #expect(store.tightenedFiles.isEmpty)
            try await store.migrate()
            #expect(mode(path) == 0o600)
            await store.close()
        }
    }
}
