import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// What the screens' previews show comes from the in-memory preview client: every screen has
/// something to show, the security history included.
@MainActor @Suite struct PreviewScreensTests {
    @Test(arguments: Language.allCases)
    func theSecurityHistoryPreviewShowsEventsWithAWarning(language: Language) async {
        let session = SessionManager.preview(signedIn: true, language: language)
        _ = try? await session.restore()
        let history = SecurityHistory(session: session)
        await history.load()
        #expect(history.message == nil, "\(history.message ?? "")")
        #expect(history.entries.count == 3)
        #expect(history.entries.filter(\.isWarning).count == 1, "a failed attempt is marked")
        #expect(!history.hasMore)
    }
}
