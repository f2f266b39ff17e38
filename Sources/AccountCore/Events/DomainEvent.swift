import AccountAPI
import AccountStore
import Foundation

/// One thing that happened to an account (or to a sign-in attempt before an account is known),
/// recorded once where the operation decides it; the sinks map it to the security history, the
/// audit log, the hourly counters and the metrics (``DomainEvents``).
///
/// Nothing secret goes in: `detail` holds names of methods and reasons, counts, ids and a passkey's
/// name, never a password, code or token.
package struct DomainEvent: Sendable {
    package var kind: Kind
    /// The account it happened to; `nil` before one is known (an unknown login identifier).
    package var userID: UUID?
    package var at: Date
    package var source: EventSource
    /// The small fields the log line carries, in its order.
    package var detail: KeyValuePairs<StaticString, String>

    package init(_ kind: Kind, userID: UUID?, at: Date, source: EventSource, _ detail: KeyValuePairs<StaticString, String> = [:]) {
        self.kind = kind
        self.userID = userID
        self.at = at
        self.source = source
        self.detail = detail
    }

    /// What happened.
    package enum Kind: Sendable, Equatable {
        /// A session opened (`login_succeeded`).
        case signedIn(SignInRoute, SignInMethod)
        /// A sign-in refused; `refusal` says why (the counters and metrics tell them apart). With
        /// `logged`, the refusal the sign-in decided itself (its back-off, a disabled account) is
        /// also a log line: `login_backoff`, `login_refused`.
        case loginRefused(SignInRoute, LoginRefusal, logged: Bool = false)
        /// A right first step of an account with a second factor: a challenge, no session yet.
        case secondFactorRequired(SignInRoute)
        /// A proof checked under the account's back-off was wrong, at the route `via` names
        /// (`login`, `mfa_verify`, a step-up's route): a `login_failed` history row.
        case checkFailed(FailedCheck, via: String)
        /// `count` sessions of the account ended for `reason`; a logout's is logged (`logout`),
        /// whatever the count.
        case sessionsEnded(count: Int, SessionEndReason)
        /// A refresh token was presented.
        case refreshed(RefreshOutcome)
        /// An account was made.
        case signedUp(SignUpRoute)
        /// A code was asked for (sign-up verification, reset): `mailed` when a mail was queued.
        case codeSent(mailed: Bool)
        /// A sign-up's code was mailed with the sign-up itself.
        case signUpCodeMailed
        /// A change to the account the security history keeps, with the row's own detail, and the
        /// log line that tells it, if any (its fields are the event's `detail`).
        case changed(SecurityEventKind, [String: String] = [:], logged: AuditEvent? = nil)
        /// Something only the audit log tells.
        case logged(AuditEvent)
    }
}

/// Where an event came from: the request's id, the client's address and `User-Agent` (the device
/// a history row names). ``none`` for the server itself and the command line.
package struct EventSource: Sendable {
    package var requestID: String?
    package var clientAddress: String?
    package var userAgent: String?

    package static let none = EventSource(requestID: nil, clientAddress: nil, userAgent: nil)

    package init(requestID: String?, clientAddress: String?, userAgent: String?) {
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.userAgent = userAgent
    }

    /// The origin a history row keeps: the address and the device its `User-Agent` names.
    package var origin: EventOrigin { EventOrigin(clientAddress: clientAddress, userAgent: userAgent) }
}

/// The way a sign-in came in: counters and metrics count some and not others.
package enum SignInRoute: Sendable, Equatable {
    /// `POST /auth/login`.
    case password
    /// `POST /auth/passkeys/login`.
    case passkey
    /// `POST /auth/mfa/verify`.
    case secondFactor
    /// `POST /auth/email/verify` with `sign_in`.
    case emailVerification
    /// An email-first sign-up, signed in as it is made.
    case signUp
    /// Sign in with Apple (a login or the sign-up it continues).
    case apple

    /// The routes whose every attempt the operators' figures count.
    var countedInFigures: Bool { self == .password || self == .passkey || self == .secondFactor }
}

/// Why a sign-in was refused.
package enum LoginRefusal: Sendable, Equatable {
    /// A wrong password, code or passkey, or an unknown account.
    case wrongProof
    /// The account's back-off, a spent challenge: refused without a check.
    case backedOff
    case tooManyAttempts
    case accountDisabled
    case emailNotVerified
    /// The per-address limit, before the request reached the sign-in.
    case addressLimited

    /// The refusal an error of a sign-in says; `nil` for a malformed request or an expired step,
    /// which are no attempt.
    package init?(_ code: ErrorCode) {
        switch code {
        case .invalidCredentials, .codeInvalid, .passkeyInvalid: self = .wrongProof
        case .rateLimited: self = .backedOff
        case .tooManyAttempts: self = .tooManyAttempts
        case .accountDisabled: self = .accountDisabled
        case .emailNotVerified: self = .emailNotVerified
        default: return nil
        }
    }
}

/// The proof a `checkFailed` event found wrong, as its history row's `check`.
package enum FailedCheck: String, Sendable {
    case password
    case secondFactor = "second_factor"
    case passkey
    case apple
}

/// How an account was made.
package enum SignUpRoute: Sendable, Equatable {
    /// The details-first form, made at once (unverified logins allowed), or at a login that found
    /// its pending sign-up.
    case details
    /// A verified address's token (email-first).
    case emailFirst
    /// A details-first sign-up's code verified.
    case codeVerified
    /// Sign in with Apple.
    case apple
}

extension Caller {
    /// The source of this caller's events.
    package var source: EventSource { EventSource(requestID: requestID, clientAddress: clientAddress, userAgent: userAgent) }

    /// The event `kind` of `userID` now, from this caller.
    package func event(_ kind: DomainEvent.Kind, userID: UUID? = nil, _ detail: KeyValuePairs<StaticString, String> = [:]) -> DomainEvent {
        DomainEvent(kind, userID: userID, at: now, source: source, detail)
    }
}

extension SignedInCaller {
    /// The event `kind` of the signed-in account now.
    package func event(_ kind: DomainEvent.Kind, _ detail: KeyValuePairs<StaticString, String> = [:]) -> DomainEvent {
        caller.event(kind, userID: userID, detail)
    }
}
