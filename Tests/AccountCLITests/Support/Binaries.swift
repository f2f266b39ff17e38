import TestSupport
import Foundation

/// Where the `account` client under test is: `$ACCOUNT_CLI_BIN`, else the package's
/// `.build/debug/` (TestSupport's `ServerProcess` finds the server).
enum Binaries {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The `account` client.
    static func client() throws -> URL { try locate("account", override: "ACCOUNT_CLI_BIN") }

    private static func locate(_ name: String, override: String) throws -> URL {
        if let path = ProcessInfo.processInfo.environment[override], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // …/Tests/AccountCLITests/Support/Binaries.swift → the package root is four levels up.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent(".build/debug/\(name)")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Missing(description: "no \(name) at \(url.path): run `swift build` first or set \(override)")
        }
        return url
    }
}
