import AccountAPI
import Foundation

/// The audit log: one JSON line of `.event` priority per event the log tells, with the request's
/// id, the client's address and the account, then the event's detail in its order.
package enum AuditLogSink {
    /// Logs `event`, if the log tells it.
    static func write(_ event: DomainEvent) {
        guard let name = name(of: event.kind) else { return }
        var line = LogLine(event: name)
        if let requestID = event.source.requestID { line.field("request_id", requestID) }
        if let client = event.source.clientAddress { line.field("client", client) }
        if let userID = event.userID { line.field("user_id", userID.lowercasedText) }
        line.fields(event.detail)
        Log.write(line, .event)
    }

    /// The log line's event name of `kind`; `nil` for what the log does not tell.
    static func name(of kind: DomainEvent.Kind) -> String? {
        switch kind {
        case .signedIn(let route, _): route == .signUp ? nil : AuditEvent.loginSucceeded.rawValue
        case .secondFactorRequired: AuditEvent.secondFactorRequired.rawValue
        case .checkFailed(let check, let via):
            switch check {
            case .password: (via == "login" ? AuditEvent.loginFailed : AuditEvent.passwordCheckFailed).rawValue
            case .secondFactor: AuditEvent.secondFactorFailed.rawValue
            // A refused passkey or Apple token is logged with its reason, by its own event.
            case .passkey, .apple: nil
            }
        case .refreshed(let outcome): outcome == .reused ? AuditEvent.refreshTokenReused.rawValue : nil
        case .signedUp(let route): route == .codeVerified || route == .apple ? AuditEvent.signUpCompleted.rawValue : nil
        case .codeSent: AuditEvent.codeSent.rawValue
        case .loginRefused(_, let refusal, let logged):
            switch (refusal, logged) {
            case (.backedOff, true): AuditEvent.loginBackoff.rawValue
            case (.accountDisabled, true): AuditEvent.loginRefused.rawValue
            default: nil
            }
        case .sessionsEnded(_, let reason):
            reason == .logout || reason == .logoutOthers || reason == .logoutAll ? AuditEvent.logout.rawValue : nil
        case .changed(_, _, let logged): logged?.rawValue
        case .logged(let event): event.rawValue
        case .signUpCodeMailed: nil
        }
    }
}
