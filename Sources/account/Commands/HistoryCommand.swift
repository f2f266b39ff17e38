import AccountAPI
import AccountKit

/// `account history`: the account's security history, newest first, in local time; `!` marks a
/// failed attempt and the like.
enum HistoryCommand {
    static func run(_ context: Context) async throws {
        var limit = 20
        if let text = context.invocation.value("limit") {
            guard let value = Int(text), (1...100).contains(value) else {
                throw UsageError(context.say("--limit must be a whole number from 1 to 100", "--limit은 1에서 100 사이의 정수여야 해요"))
            }
            limit = value
        }
        let session = try await context.signedIn().0
        var page = try await session.securityEvents(limit: limit)
        var events = page.events
        while context.invocation.has("all"), let next = page.next {
            page = try await session.securityEvents(limit: 100, after: next)
            events += page.events
        }
        if context.json { return try context.printJSON(SecurityEventPage(events: events, next: page.next)) }
        guard !events.isEmpty else { return context.console.out(SecurityEventTexts.empty(context.language)) }
        let titles = events.map { SecurityEventTexts.title($0)(context.language) }
        let width = min(48, titles.map(\.columns).max() ?? 0)
        context.console.out("  " + [
            context.say("when", "시간").padded(to: 16),
            context.say("event", "기록").padded(to: width),
            context.say("device · address", "기기 · 주소"),
        ].joined(separator: "  "))
        for (event, title) in zip(events, titles) {
            let marker = SecurityEventTexts.isWarning(event) ? "! " : "  "
            context.console.out(marker + [
                LocalTime.string(from: event.at).padded(to: 16),
                title.padded(to: width),
                SecurityEventTexts.origin(event) ?? "-",
            ].joined(separator: "  "))
        }
        if page.next != nil {
            context.console.out(context.say("(older events: account history --all)", "(이전 기록: account history --all)"))
        }
    }
}
