import AccountAPI
import AccountStore
import Foundation

extension NicknameGuard {
    /// Fills the nickname skeletons and email keys of accounts written before they existed (see
    /// ``UserKeyBackfill``), and writes one warning line on standard error for each account that
    /// lost a key to another, so an operator can settle it.
    func fillUserKeys(in store: any AccountStore) async throws -> UserKeyBackfill.Outcome {
        let backfill = UserKeyBackfill(
            skeletons: { user in
                let skeletons = try self.skeletons(of: user.username)
                return (skeletons.folded, skeletons.displayed)
            },
            emailKey: { EmailRule.key($0) })
        let outcome = try await backfill.run(on: store)
        for lost in outcome.displaced {
            let what = lost.field == "email"
                ? "has the same email address as account \(lost.keptBy.lowercasedText) once spellings are folded; that account keeps it, so login and codes by the address reach it, and this one logs in by nickname only"
                : "has a nickname that looks like the one of account \(lost.keptBy.lowercasedText), which keeps it; this one keeps its nickname"
            FileHandle.standardError.write(Data("account-server: warning: account \(lost.userID.lowercasedText) \(what)\n".utf8))
        }
        return outcome
    }
}
