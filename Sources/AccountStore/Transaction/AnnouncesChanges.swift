import Foundation

/// A row a cache may hold, as a write names it before changing it.
public enum ChangedRow: Sendable, Hashable {
    /// The account `id`: its `users` row, or every one of its sessions at once.
    case user(UUID)
    /// The session `id`.
    case session(UUID)
}

/// Told, before each statement of a write runs, which cached row it is about to change.
public protocol ChangeObserver: AnyObject, Sendable {
    /// `row` is about to change (or go); called on the transaction's thread, before the statement.
    func willChange(_ row: ChangedRow)
}

/// A transaction whose writes name the rows they change.
///
/// Every statement that updates or deletes `users` or `sessions` rows names them
/// (``ChangedRow``), and the transaction tells its observer before the statement runs. Inserts
/// name nothing: a cache holds only rows it read, never an absence.
public protocol AnnouncesChanges {
    /// Tells `observer`, from now until the transaction ends, of every row a statement is about to
    /// change. A later call replaces the observer.
    func announceChanges(to observer: any ChangeObserver)
}
