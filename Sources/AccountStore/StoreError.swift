/// Errors every store backend reports in the same terms.
public enum StoreError: Error, Sendable, Equatable {
    /// A unique key is already used; `field` is `"username"`, `"email"` or another column name.
    case conflict(field: String)
    /// The database cannot be reached or refused the operation for a reason that may pass.
    case unavailable(reason: String)
    /// A bug or corrupted data: the statement failed for a reason that will not pass.
    case failure(reason: String)
}
