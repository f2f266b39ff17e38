/// What a screen reader says when messages change: a message that was not there before, once.
///
/// A field's errors change as the user types; only a new one is announced (a message still shown
/// was read already), and the field's own label does not repeat it.
///
/// ```swift
/// if let text = Announcement.new(in: newErrors, before: oldErrors) { /* post it */ }
/// ```
public enum Announcement {
    /// The first of `current` that `previous` did not show; `nil` when nothing is new.
    public static func new(in current: [String], before previous: [String]) -> String? {
        current.first { !previous.contains($0) }
    }

    /// A single message that appeared or changed; `nil` when it went away or stayed the same.
    public static func new(_ current: String?, before previous: String?) -> String? {
        guard let current, current != previous else { return nil }
        return current
    }
}
