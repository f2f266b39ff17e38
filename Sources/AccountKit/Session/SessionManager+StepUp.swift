import AccountAPI
import Foundation

extension SessionManager {
    // MARK: What a step-up asks

    /// What `change` asks the signed-in account to prove, from what this manager knows now: the
    /// user as last read, and its passkeys as last listed or changed here (none known, none held);
    /// `nil` when signed out. For a screen's first frame; ``stepUpRequirement(for:)`` reads both again.
    public nonisolated func currentStepUpRequirement(for change: SensitiveChange) -> StepUpRequirement? {
        let values = snapshot.current
        guard let user = values.state.user else { return nil }
        let passkeys = values.passkeys.flatMap { $0.userID == user.id ? $0.count : nil } ?? 0
        return StepUpRequirement(change: change, user: user, holdsPasskey: passkeys > 0)
    }

    /// What `change` asks the signed-in account to prove, with the user (`GET /auth/me`) and its
    /// passkeys (`GET /auth/passkeys`; a server without passkeys holds none) read again.
    public func stepUpRequirement(for change: SensitiveChange) async throws -> StepUpRequirement {
        let user = try await me()
        let held: Int
        do {
            held = try await passkeys().count
        } catch AccountError.refused(let problem) where problem.code == .notFound {
            held = 0
        }
        return StepUpRequirement(change: change, user: user, holdsPasskey: held > 0)
    }

    /// Notes how many passkeys the signed-in account holds: `count`, or the known count moved by
    /// `delta` (a passkey added or removed here; unknown stays unknown, except that an added one
    /// is held).
    func notePasskeys(count: Int? = nil, delta: Int = 0) {
        guard let userID = session?.user.id else { return }
        snapshot.update { values in
            let known = values.passkeys.flatMap { $0.userID == userID ? $0.count : nil }
            guard let new = count ?? known.map({ max(0, $0 + delta) }) ?? (delta > 0 ? delta : nil) else { return }
            values.passkeys = (userID, new)
        }
    }
}
