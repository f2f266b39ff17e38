import Foundation

/// A fresh folder for one test's database, mail and clock file, removed when the last reference goes.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("account-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The SQLite file the servers of this folder share.
    public var database: URL { url.appendingPathComponent("account.sqlite") }

    /// The folder `--mail file://` writes to.
    public var mail: URL { url.appendingPathComponent("mail") }

    deinit { try? FileManager.default.removeItem(at: url) }
}
