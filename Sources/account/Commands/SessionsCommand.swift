import AccountAPI
import AccountKit

/// `account sessions`: the account's live sessions, newest first; `*` marks this one.
enum SessionsCommand {
    static func run(_ context: Context) async throws {
        let client = context.client
        let sessions = try await context.signedIn().authorized { token in try await client.sessions(accessToken: token) }
        if context.json { return try context.printJSON(SessionList(sessions: sessions)) }
        context.console.out("  " + [context.say("id", "ID").padded(to: 36),
            context.say("last used", "마지막 사용").padded(to: 20),
            context.say("device", "기기")].joined(separator: "  "))
        for session in sessions {
            let marker = session.current ? "* " : "  "
            context.console.out(marker + [
                session.id.uuidString.lowercased(),
                RFC3339.string(from: session.lastUsedAt).padded(to: 20),
                session.userAgent ?? "-",
            ].joined(separator: "  "))
        }
    }
}
