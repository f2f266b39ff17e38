import AccountAPI
import AccountStore
import Foundation

/// Where a security event came from: the client's address and its device, as the request's
/// `User-Agent` names it (``UserAgent/deviceName(of:)``, the name clients show for a session).
///
/// Events are written with ``record(_:userID:at:_:in:)`` in the transaction of the change they
/// record (a login's session, a password change, a passkey added), or, for a failed attempt, in
/// the transaction the login back-off writes anyway (``LoginThrottle``): never a transaction of
/// their own on a path that succeeds, and never a refresh. Nothing secret goes in: the detail
/// holds names of methods and reasons, counts and a passkey's name, never a password, code or token.
package struct EventOrigin: Sendable, Equatable {
    package var clientAddress: String?
    package var deviceName: String?

    /// No request: an event of the server itself or of the command line.
    package static let none = EventOrigin(clientAddress: nil, deviceName: nil)

    /// The longest device name and address kept; longer ones are cut.
    package static let maxDeviceName = 200
    package static let maxAddress = 64

    package init(clientAddress: String?, deviceName: String?) {
        self.clientAddress = clientAddress.map { String($0.prefix(Self.maxAddress)) }
        self.deviceName = deviceName.map { String($0.prefix(Self.maxDeviceName)) }
    }

    /// The event `kind` of `userID` at `date`, from here.
    package func event(_ kind: SecurityEventKind, userID: UUID, at date: Date, _ detail: [String: String] = [:]) -> SecurityEventRecord {
        SecurityEventRecord(
            userID: userID, at: date, type: kind.rawValue, clientAddress: clientAddress, deviceName: deviceName,
            detail: SecurityEventDetail.text(detail))
    }

    /// Writes the event `kind` of `userID` in `tx`.
    package func record(_ kind: SecurityEventKind, userID: UUID, at date: Date, _ detail: [String: String] = [:], in tx: any StoreTransaction) throws {
        try tx.insertSecurityEvent(event(kind, userID: userID, at: date, detail))
    }

    /// Writes one `session_ended` event for `count` sessions of `userID` ended for `reason`; none
    /// when no session ended.
    package func recordSessionsEnded(_ count: Int, reason: SessionEndReason, userID: UUID, at date: Date, in tx: any StoreTransaction) throws {
        guard count > 0 else { return }
        try record(.sessionEnded, userID: userID, at: date, ["reason": reason.rawValue, "count": String(count)], in: tx)
    }
}

/// Why sessions ended, as a `session_ended` event's `reason`.
package enum SessionEndReason: String, Sendable {
    /// `POST /auth/logout` (`scope=local`): this session.
    case logout
    /// `POST /auth/logout?scope=others`.
    case logoutOthers = "logout_others"
    /// `POST /auth/logout?scope=global`.
    case logoutAll = "logout_all"
    /// `DELETE /auth/sessions/{id}`: one session ended from the list.
    case ended
    /// Every other session ends with these changes.
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case mfaEnabled = "mfa_enabled"
    case mfaDisabled = "mfa_disabled"
    /// A refresh token was presented again after it was used: the session was ended in case it was stolen.
    case refreshTokenReused = "refresh_token_reused"
    /// An operator disabled the account, or ended its sessions.
    case accountDisabled = "account_disabled"
    case operatorEnded = "operator"
}

/// How a sign-in was made, as a `login_succeeded` event's `method`.
package enum SignInMethod: String, Sendable {
    case password
    case totp
    case recoveryCode = "recovery_code"
    case passkey
    /// The code mailed for a sign-up, verified with `sign_in`.
    case emailCode = "email_code"
    /// The sign-up itself, with an address proven first (`email_verification_token`).
    case signUp = "signup"
    case apple

    /// The method a session's `amr` names: its second factor or passkey if any, else the password.
    package init(amr: [String]) {
        if amr.contains(AuthenticationMethod.multipleFactors) {
            self = .passkey
        } else if amr.contains(AuthenticationMethod.recoveryCode) {
            self = .recoveryCode
        } else if amr.contains(AuthenticationMethod.otp) {
            self = .totp
        } else if amr.contains("apple") {
            self = .apple
        } else {
            self = .password
        }
    }
}

/// The detail of an event: a small JSON object of strings, stored as text.
package enum SecurityEventDetail {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The stored text of `detail`; `nil` when it is empty.
    package static func text(_ detail: [String: String]) -> String? {
        guard !detail.isEmpty, let data = try? encoder.encode(detail) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The object stored as `text`; `nil` for none (or for text this server did not write).
    package static func object(_ text: String?) -> [String: String]? {
        guard let text else { return nil }
        return try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }
}
