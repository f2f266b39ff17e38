import AccountAPI
import AccountStore
import Foundation

/// Where a security event came from: the client's address and its device, as the request's
/// `User-Agent` names it (``UserAgent/deviceName(of:)``, the name clients show for a session).
/// A session keeps it too. The rows themselves are written by ``SecurityHistorySink``.
package struct EventOrigin: Sendable, Equatable {
    package var clientAddress: String?
    package var deviceName: String?

    /// The longest device name and address kept; longer ones are cut.
    package static let maxDeviceName = 200
    package static let maxAddress = 64

    package init(clientAddress: String?, deviceName: String?) {
        self.clientAddress = clientAddress.map { String($0.prefix(Self.maxAddress)) }
        self.deviceName = deviceName.map { String($0.prefix(Self.maxDeviceName)) }
    }

    /// The origin of a client at `clientAddress` whose `User-Agent` is `userAgent`: the device it names.
    package init(clientAddress: String?, userAgent: String?) {
        self.init(clientAddress: clientAddress, deviceName: UserAgent.deviceName(of: userAgent))
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
