import Foundation

/// `account_logins_total` and `account_refreshes_total` (``Metrics``): the outcomes of
/// `POST /auth/login`, sign-ins by a second factor and by a sign-up's code, and every refresh.
package struct MetricsSink: Sendable {
    let metrics: Metrics

    /// Counts `event`, if a metric counts it.
    func write(_ event: DomainEvent) {
        if case .refreshed(let outcome) = event.kind { return metrics.refresh(outcome) }
        guard let outcome = Self.loginOutcome(of: event.kind) else { return }
        metrics.login(outcome)
    }

    /// The login outcome of `kind`; `nil` for none.
    static func loginOutcome(of kind: DomainEvent.Kind) -> LoginOutcome? {
        switch kind {
        case .signedIn(.password, _): return .success
        case .signedIn(.secondFactor, _): return .mfaVerified
        case .signedIn(.emailVerification, _): return .signUpVerified
        case .secondFactorRequired(.password): return .mfaRequired
        case .loginRefused(.password, let refusal, _):
            switch refusal {
            case .wrongProof: return .invalidCredentials
            // Every `403` of a login but `mfa_required`.
            case .emailNotVerified, .accountDisabled: return .emailNotVerified
            case .backedOff, .addressLimited: return .rateLimited
            // `429` without `Retry-After`: not `rate_limited`.
            case .tooManyAttempts: return nil
            }
        default: return nil
        }
    }
}
