import Testing
@testable import AccountStorePostgres

/// The store's statements are written with `?`; PostgreSQL gets them numbered once, at prepare.
@Suite struct PlaceholderTests {
    @Test func numberedInOrder() {
        #expect(Placeholders.numbered("UPDATE t SET a = ?, b = ? WHERE id = ?") == "UPDATE t SET a = $1, b = $2 WHERE id = $3")
        #expect(Placeholders.numbered("SELECT COUNT(*) FROM outbox") == "SELECT COUNT(*) FROM outbox")
    }

    @Test func quotesAndCommentsAreLeftAlone() {
        #expect(Placeholders.numbered("SELECT '?', \"a?\" FROM t WHERE x = ?") == "SELECT '?', \"a?\" FROM t WHERE x = $1")
        #expect(Placeholders.numbered("SELECT 'it''s ?' WHERE y = ?") == "SELECT 'it''s ?' WHERE y = $1")
        #expect(Placeholders.numbered("SELECT 1 -- why?\nWHERE z = ?") == "SELECT 1 -- why?\nWHERE z = $1")
        #expect(Placeholders.numbered("SELECT a - ? FROM t") == "SELECT a - $1 FROM t")
    }
}
