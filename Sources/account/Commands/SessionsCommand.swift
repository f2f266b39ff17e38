import AccountAPI
import AccountKit

/// `account sessions`: the account's live sessions, newest first, in local time, with the address
/// each was last used from (`-` when the server does not know it); `*` marks this one.
enum SessionsCommand {
    static func run(_ context: Context) async throws {
        let sessions = try await context.signedIn().0.sessions()
        if context.json { return try context.printJSON(SessionList(sessions: sessions)) }
        let addressHeading = context.say("address", "주소")
        let addresses = sessions.map { $0.clientAddress ?? "-" }
        let width = ([addressHeading] + addresses).map(\.columns).max() ?? 0
        context.console.out("  " + [
            context.say("id", "ID").padded(to: 36),
            context.say("last used", "마지막 사용").padded(to: 16),
            addressHeading.padded(to: width),
            context.say("device", "기기"),
        ].joined(separator: "  "))
        for (session, address) in zip(sessions, addresses) {
            let marker = session.current ? "* " : "  "
            context.console.out(marker + [
                session.id.uuidString.lowercased(),
                LocalTime.string(from: session.lastUsedAt).padded(to: 16),
                address.padded(to: width),
                session.deviceName ?? "-",
            ].joined(separator: "  "))
        }
    }
}
