import Foundation

/// A fresh folder for one test's database and mail, removed when the last reference goes.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("account-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The SQLite file the servers of this folder share.
    var database: URL { url.appendingPathComponent("account.sqlite") }

    /// The folder `--mail file://` writes to.
    var mail: URL { url.appendingPathComponent("mail") }

    deinit { try? FileManager.default.removeItem(at: url) }
}
