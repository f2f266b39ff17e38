import Foundation

/// What operators do and see: the admin role, disabled accounts, the audit log and the account search.
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol OperatorsTransaction {
    /// Grants or revokes the admin role; returns whether the account exists.
    @discardableResult func setAdmin(userID: UUID, _ isAdmin: Bool) throws -> Bool
    /// Every account with the admin role, by nickname.
    func admins() throws -> [UserRecord]
    /// Disables the account from `at`, or enables it with `nil`; returns whether the account exists.
    @discardableResult func setDisabled(userID: UUID, at: Date?) throws -> Bool
    func insertAuditEvent(_ event: AuditEventRecord) throws
    /// Up to `limit` audit events, newest first, after `after` (a keyset position) when given.
    func auditEvents(after: KeysetPosition?, limit: Int) throws -> [AuditEventRecord]
    /// Up to `limit` accounts matching `query` in its order, after `after` when given (a position
    /// of another order gives an empty last page), and where the next page starts; every filter
    /// and the order are served by an index, so a page costs about the same at any size.
    func adminUsers(_ query: AdminUserQuery, after: AdminSearchPosition?, limit: Int) throws -> AdminSearchPage
    /// The account `id` as the search lists it.
    func adminUser(id: UUID) throws -> AdminUserRow?
}
