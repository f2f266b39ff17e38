import AccountKit
import Foundation

// One of two processes sharing a session through one file store, for SharedSessionTests:
// restores the session from the folder and forces a refresh at each agreed moment, so both
// processes refresh at once, again and again. Prints `ok` or why it was signed out (exit 1).
//
//   SharedSessionHelper <server> <store folder> <user agent> <rounds> <first round, Unix time> <ms between rounds>
let arguments = CommandLine.arguments
guard arguments.count == 7, let server = URL(string: arguments[1]), let rounds = Int(arguments[4]),
      let start = Double(arguments[5]), let interval = Double(arguments[6])
else {
    print("usage: SharedSessionHelper <server> <folder> <user agent> <rounds> <start> <ms>")
    exit(2)
}
let client = AccountClient(baseURL: server, userAgent: arguments[3])
let session = SessionManager(client: client, store: FileCredentialStore(directory: URL(fileURLWithPath: arguments[2])))
do {
    try await session.restore()
    for round in 0..<rounds {
        let wait = start + Double(round) * interval / 1000 - Date().timeIntervalSince1970
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) }
        try await session.refresh()
    }
    _ = try await session.me()
    print("ok")
} catch {
    print("failed: \(error)")
    exit(1)
}
