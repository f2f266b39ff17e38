import AccountAPI
import AccountKit

/// `account sessions`: the account's live sessions, newest first, in local time; `*` marks this one.
enum SessionsCommand {
    static func run(_ context: Context) async throws {
        let sessions = try await context.signedIn().0.sessions()
        if context.json { return try context.printJSON(SessionList(sessions: sessions)) }
        context.console.out("  " + [
            context.say("id", "ID").padded(to: 36),
            context.say("last used", "마지막 사용").padded(to: 16),
            context.say("device", "기기"),
        ].joined(separator: "  "))
        for session in sessions {
            let marker = session.current ? "* " : "  "
            context.console.out(marker + [
                session.id.uuidString.lowercased(),
                LocalTime.string(from: session.lastUsedAt).padded(to: 16),
                session.deviceName ?? "-",
            ].joined(separator: "  "))
        }
    }
}
