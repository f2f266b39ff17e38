import AccountAPI
import AccountStore
import Foundation
import Mailer

/// The 6-digit codes mailed on request, for signing up or for proving an address.
package struct EmailCodeOperations {
    package let services: Services

    /// What a request for a code came to.
    package enum RequestOutcome: Equatable {
        /// Answered as sent, whatever the address: a code, a notice or nothing went out.
        case requested
    }

    /// Mails a code for `purpose` to `email` (normalized): for `signup` when the address is not
    /// yet used, for `verify` when it has a pending sign-up or an unverified account. A taken
    /// address gets a "you already have an account" notice instead (for `signup`), one with
    /// nothing to verify gets nothing (for `verify`); all count for the resend cooldown, and every
    /// message goes through the address's mail budget.
    package func requestCode(for purpose: CodePurpose, to email: String, by caller: Caller) async throws -> RequestOutcome {
        let emailKey = EmailRule.key(email)
        let (services, now, language, minutes) = (services, caller.now, caller.language, services.configuration.codeTTL / 60)
        let mailed = try await services.store.write { tx -> Bool in
            let account = try tx.user(emailKey: emailKey)
            let pending = account == nil && purpose == .verify ? try services.signUps.livePendingSignUp(emailKey: emailKey, now: now, in: tx) : nil
            let sendsCode = switch purpose {
            case .signup: account == nil
            case .verify: account.map { !$0.emailVerified } ?? (pending != nil)
            }
            // Mail goes to the address as stored (by the account or the pending sign-up); only a
            // sign-up code, with nothing stored yet, goes to the request's address (normalized, so
            // it is the one a sign-up will store).
            let recipient = account?.email ?? pending?.email ?? email
            return try services.codes.issue(emailKey: emailKey, purpose: purpose.rawValue, now: now, in: tx) { code in
                if sendsCode {
                    // A pending sign-up's code names its nickname, as the sign-up's own mail did.
                    return .code(MailTemplates.code(
                        code, purpose: purpose, language: language, lifetimeMinutes: minutes, to: recipient, signingUpAs: pending?.username))
                }
                if purpose == .signup, let account { return .notice(MailTemplates.alreadyRegistered(language: language, to: account.email)) }
                return .none
            }
        }
        // The same line whether or not a code went out, like the reply.
        services.events.record(caller.event(.codeSent(mailed: mailed), ["purpose": purpose.rawValue]))
        return .requested
    }
}
