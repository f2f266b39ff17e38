import AccountKit
import Foundation

// A command-line program: its entry point exists where command-line programs do (an iOS app's is
// its `App`; the iOS type-check compiles the rest of this example with the Playground app).
#if !os(iOS)
@main
struct QuickStartMain {
    /// `QuickStart --server URL` (or `ACCOUNT_SERVER`): runs the guide's example; exit status 0
    /// when every step did what the guide says, 1 otherwise, 2 without a server.
    static func main() async {
        let console = Console()
        let arguments = CommandLine.arguments
        let given = arguments.firstIndex(of: "--server").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
            ?? ProcessInfo.processInfo.environment["ACCOUNT_SERVER"]
        // No silent default: an app that forgot its server must not talk to localhost.
        guard let text = given, let server = URL(string: text) else {
            console.say("usage: QuickStart --server http://127.0.0.1:8000 (or ACCOUNT_SERVER)")
            exit(2)
        }
        do {
            try await QuickStart.run(server: server, io: console)
        } catch {
            console.say("failed: \(error)")
            exit(1)
        }
    }
}
#endif
