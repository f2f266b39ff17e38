import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything a call to the account API can end in besides success. Closed, so apps can `switch`.
///
/// Server problem codes map onto cases; a code this version does not know lands in ``refused(_:)``
/// with the whole ``Problem``, so a newer server never breaks an older app.
public enum AccountError: Error, Sendable, Equatable {
    /// `validation_failed`: per-field errors with the server's messages, keyed by wire field name.
    case invalidInput([String: [FieldError]])
    /// Wrong identifier or password; from a password change or account deletion, a wrong current
    /// password (the server's `403`): the session is fine and stays.
    case invalidCredentials
    /// The password was right but the email address is not verified yet.
    case emailNotVerified
    /// Something is already taken (`username_taken`, or an email field error `taken`).
    case conflict(ErrorCode)
    /// A one-time code or verification token was refused: `code_invalid`, `code_expired` or
    /// `too_many_attempts`.
    case codeRejected(ErrorCode)
    /// Too many requests; try again after the delay (seconds) when the server gave one.
    case rateLimited(retryAfter: Int?)
    /// The session ended by time; sign in again.
    case sessionExpired
    /// The session was logged out or revoked elsewhere (`session_revoked`, `refresh_token_reused`).
    case sessionRevoked(ErrorCode)
    /// No session is stored: sign in first.
    case notSignedIn
    /// Any other refusal the server explained (`invalid_request`, `not_found`, unknown codes).
    case refused(Problem)
    /// The server failed (5xx), with its problem body when it sent one.
    case server(status: Int, problem: Problem?)
    /// The reply could not be read as the API promises.
    case undecodableReply(status: Int)
    /// The request did not reach the server or its reply was lost.
    case transport(URLError)
    /// The credential store failed (for example, a locked Keychain); not the same as signed out.
    case storage(CredentialStoreError)

    /// Maps a problem reply to a case.
    public init(status: Int, problem: Problem?, retryAfter: Int?) {
        guard let problem else {
            self = status >= 500 ? .server(status: status, problem: nil) : .undecodableReply(status: status)
            return
        }
        switch problem.code {
        case .validationFailed:
            let fields = problem.errors ?? [:]
            if fields.values.contains(where: { $0.contains { $0.code == .taken } }), fields.count == 1, fields["email"] != nil {
                self = .conflict(ErrorCode("email_taken"))
            } else {
                self = .invalidInput(fields)
            }
        // 401 at login; 403 for a wrong password behind a valid token (password change, account
        // deletion), which must not end the session.
        case .invalidCredentials: self = .invalidCredentials
        case .emailNotVerified: self = .emailNotVerified
        case .usernameTaken: self = .conflict(.usernameTaken)
        case .codeInvalid, .codeExpired, .tooManyAttempts: self = .codeRejected(problem.code)
        case .rateLimited: self = .rateLimited(retryAfter: retryAfter)
        case .tokenExpired: self = .sessionExpired
        case .sessionRevoked, .refreshTokenReused: self = .sessionRevoked(problem.code)
        case .tokenInvalid: self = .sessionRevoked(.tokenInvalid)
        default:
            self = status >= 500 ? .server(status: status, problem: problem) : .refused(problem)
        }
    }

    /// Whether the stored session is gone for good, so the app should show sign-in.
    public var endsSession: Bool {
        switch self {
        case .sessionExpired, .sessionRevoked, .notSignedIn: true
        default: false
        }
    }

    /// The server's field errors, if any, by wire field name.
    public var fieldErrors: [String: [FieldError]] {
        if case .invalidInput(let fields) = self { return fields }
        return [:]
    }
}
