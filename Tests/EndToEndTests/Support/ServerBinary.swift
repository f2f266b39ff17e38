import Foundation
import Testing

/// Where the `account-server` executable under test is.
enum ServerBinary {
    /// `$ACCOUNT_SERVER_BIN`, else `.build/debug/account-server` in the package root.
    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["ACCOUNT_SERVER_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // …/Tests/EndToEndTests/Support/ServerBinary.swift → the package root is three folders up.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/account-server")
    }

    /// The executable, or a test failure that says how to get one.
    static func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let url = url
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "account-server not found at \(url.path): run `swift build` first or set ACCOUNT_SERVER_BIN",
            sourceLocation: sourceLocation)
        return url
    }
}
