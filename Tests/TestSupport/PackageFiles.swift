import Foundation

/// Files of this package that tests read or run: scripts, documents, the String Catalog.
public enum PackageFiles {
    /// The package root (`Tests/TestSupport/PackageFiles.swift` is three folders below it).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file by its path from the root, such as `scripts/smtp-sink.py`.
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
}

/// The built programs under test, each found in one place.
public enum Binaries {
    /// Where `swift build` puts what it builds: `.build/debug` in the package root.
    public static var buildFolder: URL { PackageFiles.url(".build/debug") }

    /// `account-server`: `$ACCOUNT_SERVER_BIN`, else the build folder's.
    public static func server() throws -> URL { try locate("account-server", override: "ACCOUNT_SERVER_BIN") }

    /// `account`, the terminal client: `$ACCOUNT_CLI_BIN`, else the build folder's.
    public static func client() throws -> URL { try locate("account", override: "ACCOUNT_CLI_BIN") }

    /// `QuickStart`, the guide's example (`Examples/QuickStart`).
    public static func quickStart() throws -> URL { try locate("QuickStart", override: nil) }

    private static func locate(_ name: String, override: String?) throws -> URL {
        if let override, let path = ProcessInfo.processInfo.environment[override], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let url = buildFolder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw TestFailure("no \(name) at \(url.path): run `swift build` first" + (override.map { " or set \($0)" } ?? ""))
        }
        return url
    }
}
