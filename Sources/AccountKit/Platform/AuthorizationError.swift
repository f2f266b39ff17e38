import AccountAPI
import Foundation

/// How one of the system's sheets (a passkey, Sign in with Apple) ended without a credential.
///
/// The person closing the sheet is ``cancelled``: the SDK's calls turn it into an outcome of its own
/// (``PasskeyLoginOutcome/cancelled``, ``AppleSignInOutcome/cancelled``…), never an error to show.
/// Everything else is thrown as this type, beside ``AccountError`` for what the server said.
public enum AuthorizationError: Error, Sendable, Hashable {
    /// The person closed the sheet, or the task that asked was cancelled.
    case cancelled
    /// The device has nothing to offer for the request without asking (no passkey for this server
    /// on it, in a request that may not ask: `ASAuthorizationError.notInteractive`).
    case noCredential
    /// The system refused: its error code (`ASAuthorizationError`'s, 1000–1006) and text. A missing
    /// entitlement (Associated Domains `webcredentials:` for passkeys, Sign in with Apple) or an
    /// `apple-app-site-association` that does not list the app ends here.
    case failed(code: Int, message: String)
    /// The system's reply lacked a part the server needs (an attestation object, an identity token).
    case incompleteResponse(String)

    /// The error domain of `ASAuthorizationError` (what its `NSError` says on every Apple platform).
    public static let platformDomain = "com.apple.AuthenticationServices.AuthorizationError"

    /// What the system threw, as this type: `ASAuthorizationError.canceled` (1001) and a cancelled
    /// task are ``cancelled``, `notInteractive` (1005) is ``noCredential``, any other error of the
    /// domain ``failed(code:message:)``; an ``AuthorizationError`` stays itself.
    public init(_ error: any Error) {
        if let error = error as? AuthorizationError {
            self = error
            return
        }
        if error is CancellationError {
            self = .cancelled
            return
        }
        let system = error as NSError
        switch (system.domain, system.code) {
        case (Self.platformDomain, 1001): self = .cancelled
        case (Self.platformDomain, 1005): self = .noCredential
        default: self = .failed(code: system.code, message: system.localizedDescription)
        }
    }

    /// Whether the person closed the sheet (nothing to show).
    public var isCancellation: Bool { self == .cancelled }

    /// A sentence for the person, in `language`.
    public func localizedDescription(in language: Language) -> String {
        switch self {
        case .cancelled:
            LocalizedText(en: "Cancelled.", ko: "취소했어요.")(language)
        case .noCredential:
            LocalizedText(
                en: "This device has no passkey for this account. Log in another way, then add one in your profile.",
                ko: "이 기기에 이 계정의 패스키가 없어요. 다른 방법으로 로그인한 뒤 프로필에서 패스키를 추가해 주세요.")(language)
        case .failed:
            LocalizedText(
                en: "The system could not complete the request. Check that this device is signed in to iCloud with a passcode set, then try again.",
                ko: "시스템이 요청을 처리하지 못했어요. 이 기기가 iCloud에 로그인되어 있고 암호가 설정되어 있는지 확인한 뒤 다시 시도해 주세요.")(language)
        case .incompleteResponse:
            LocalizedText(
                en: "The system's answer was incomplete. Please try again.",
                ko: "시스템의 응답이 완전하지 않아요. 다시 시도해 주세요.")(language)
        }
    }
}

extension AuthorizationError: LocalizedError {
    /// A sentence for the person, in the language of the last request (see ``AccountError``).
    public var errorDescription: String? { localizedDescription(in: ClientLanguage.current) }
}
