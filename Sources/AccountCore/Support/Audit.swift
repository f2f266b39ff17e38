import AccountAPI
import Foundation

/// Security events, one JSON line each, with time, request id, client address and account.
///
/// Only ids, addresses and outcomes go in: never a password, code or token. They are written
/// whatever `--access-log` says, and kept before request lines when standard error falls behind
/// (see ``LogSink``).
package enum AuditEvent: String {
    case loginSucceeded = "login_succeeded"
    case loginFailed = "login_failed"
    case loginBackoff = "login_backoff"
    case refreshTokenReused = "refresh_token_reused"
    case logout
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case codeSent = "code_sent"
    case codeFailed = "code_failed"
    case accountDeleted = "account_deleted"
    case signUpCompleted = "signup_completed"
    case passwordCheckFailed = "password_check_failed"
    case secondFactorRequired = "mfa_required"
    case secondFactorFailed = "mfa_failed"
    case secondFactorEnabled = "mfa_enabled"
    case secondFactorDisabled = "mfa_disabled"
    case recoveryCodeUsed = "recovery_code_used"
    case recoveryCodesReplaced = "recovery_codes_replaced"
    /// A right code refused because a newer sign-up replaced the one the request named.
    case signUpSuperseded = "signup_superseded"
    /// A passkey was registered, or removed.
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    /// A passkey response failed verification (registration or login); `reason` names the check.
    case passkeyRefused = "passkey_refused"
    /// A passkey's signature counter did not increase: it may have been cloned. Refused.
    case passkeyCounterRegressed = "passkey_counter_regressed"
    /// A right password of an account that may not sign in (disabled by an operator).
    case loginRefused = "login_refused"
    /// An operator action; also kept in the database's `audit_events`.
    case adminAction = "admin_action"
    /// An Apple identity token was refused (at login, linking, or as a proof); `reason` names the
    /// check, never the token.
    case appleTokenRefused = "apple_token_refused"
    /// A new Apple user was asked for a nickname (`profile_required`).
    case appleProfileRequired = "apple_profile_required"
    /// An Apple user whose address an account has was told to link from that account instead.
    case appleLinkRequired = "apple_link_required"
    /// An Apple ID was linked to the account, or unlinked.
    case appleLinked = "apple_linked"
    case appleUnlinked = "apple_unlinked"
}
