import AccountAPI
import Foundation
import Observation

/// The security history screen: the account's own events, newest first, a page at a time.
///
/// ```swift
/// let history = SecurityHistory(session: session)
/// await history.load()          // the newest page
/// if history.hasMore { await history.loadMore() }
/// for entry in history.entries { print(entry.title, entry.origin ?? "") }
/// ```
@MainActor @Observable public final class SecurityHistory {
    /// One row: what happened, in the client's language, when and from where.
    public struct Entry: Identifiable, Hashable, Sendable {
        public var id: String { event.id }
        /// The event as the server sent it.
        public let event: SecurityEvent
        /// "Signed in with a passkey", "Wrong password entered", … (generic for a kind this client does not know).
        public let title: String
        /// The device and address, when known.
        public let origin: String?
        /// Whether the owner should look twice (a failed attempt, a reused sign-in, …).
        public let isWarning: Bool
        public var at: Date { event.at }

        public init(_ event: SecurityEvent, language: Language) {
            self.event = event
            title = SecurityEventTexts.title(event)(language)
            origin = SecurityEventTexts.origin(event)
            isWarning = SecurityEventTexts.isWarning(event)
        }
    }

    /// The events loaded so far, newest first.
    public private(set) var entries: [Entry] = []
    /// Whether older events remain (``loadMore()`` fetches them).
    public private(set) var hasMore = false
    /// A request is on its way.
    public private(set) var isLoading = false
    /// A message about the screen (connection lost, …).
    public private(set) var message: String?
    /// The session ended: show sign-in.
    public private(set) var isSignedOut = false
    /// Events a page asks for.
    public let pageSize: Int
    /// The signed-in session.
    public let session: SessionManager

    private var next: String?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the texts'.
    ///   - pageSize: events a page asks for (1 to 100).
    public init(session: SessionManager, pageSize: Int = 20) {
        self.session = session
        self.pageSize = min(max(pageSize, 1), 100)
    }

    /// The language of the texts.
    public var language: Language { session.client.language }

    /// Whether nothing happened yet (after a load).
    public var isEmpty: Bool { entries.isEmpty && !hasMore }

    /// The text to show when there are no events.
    public var emptyText: String { SecurityEventTexts.empty(language) }

    /// Fetches the newest page, replacing what was loaded.
    public func load() async {
        await fetch(after: nil)
    }

    /// Fetches the page after the last one loaded; nothing when there is none.
    public func loadMore() async {
        guard hasMore, let next, !isLoading else { return }
        await fetch(after: next)
    }

    private func fetch(after cursor: String?) async {
        isLoading = true
        message = nil
        defer { isLoading = false }
        do {
            let page = try await session.securityEvents(limit: pageSize, after: cursor)
            let loaded = page.events.map { Entry($0, language: language) }
            if cursor == nil {
                entries = loaded
            } else {
                // A page fetched twice (a double tap) adds nothing twice.
                let known = Set(entries.map(\.id))
                entries += loaded.filter { !known.contains($0.id) }
            }
            next = page.next
            hasMore = page.next != nil
            isSignedOut = false
        } catch let error as AccountError {
            message = error.localizedDescription(in: language)
            if error.endsSession {
                entries = []
                hasMore = false
                next = nil
                isSignedOut = true
            }
        } catch {
            message = AccountError.storage(SessionManager.storageError(error)).localizedDescription(in: language)
        }
    }
}
