import AccountStore
import Foundation

/// One page of rows read newest first by keyset: the rows shown, and where the next page starts
/// when there is one.
package struct KeysetPage<Row: Sendable>: Sendable {
    package let rows: ArraySlice<Row>
    /// The position of the last row shown when more rows follow; `nil` on the last page.
    package let next: KeysetPosition?

    /// The page of `limit` rows out of `read`, which reads up to the count it is given (one more
    /// than asked, to know whether a next page exists); `position` is where a row stands.
    package static func read(
        limit: Int, position: (Row) -> KeysetPosition, _ read: @Sendable (Int) async throws -> [Row]
    ) async throws -> KeysetPage {
        let rows = try await read(limit + 1)
        let shown = rows.prefix(limit)
        return KeysetPage(rows: shown, next: rows.count > limit ? shown.last.map(position) : nil)
    }
}
