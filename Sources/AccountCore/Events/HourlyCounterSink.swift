import Foundation

/// The operators' hourly figures (``ActivityCounters``): sign-ups, sign-in attempts by outcome on
/// the routes whose every attempt counts (`POST /auth/login`, passkey login, `POST /auth/mfa/verify`;
/// successes of a code verified with `sign_in` too), refreshes and codes mailed.
package struct HourlyCounterSink: Sendable {
    let counters: ActivityCounters

    /// Counts `event` in the hour it happened, if it is counted.
    func write(_ event: DomainEvent) {
        guard let counter = Self.counter(of: event.kind) else { return }
        counters.count(counter, at: event.at)
    }

    /// The counter of `kind`; `nil` for what is not counted.
    static func counter(of kind: DomainEvent.Kind) -> ActivityCounter? {
        switch kind {
        case .signedIn(let route, _):
            return route.countedInFigures || route == .emailVerification ? .loginsSucceeded : nil
        case .loginRefused(let route, let refusal, _):
            guard route.countedInFigures else { return nil }
            switch refusal {
            case .wrongProof: return .loginsFailed
            case .backedOff, .tooManyAttempts, .accountDisabled, .emailNotVerified: return .loginsRefused
            // Refused before the sign-in step: no attempt of its.
            case .addressLimited: return nil
            }
        case .secondFactorRequired(let route):
            return route.countedInFigures ? .loginsMFARequired : nil
        case .refreshed(let outcome):
            return outcome == .rotated || outcome == .repeated ? .refreshes : nil
        case .signedUp(let route):
            return route == .apple ? nil : .signups
        case .codeSent(let mailed):
            return mailed ? .codesSent : nil
        case .signUpCodeMailed:
            return .codesSent
        case .checkFailed, .sessionsEnded, .changed, .logged:
            return nil
        }
    }
}
