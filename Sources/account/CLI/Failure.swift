import AccountAPI
import AccountKit
import Foundation

/// A refusal a command words itself (e.g. `passwd`'s "current password is wrong"). Exit status 1.
struct Refusal: Error, Sendable {
    /// Stable and machine-readable, like the API's codes.
    let code: String
    let message: String
}

/// How a failure is told: a sentence (or one line per field) for people on standard error, with
/// `--json` also an object on standard output, and the exit status.
///
/// ```json
/// {"error":{"code":"validation_failed","message":"…","fields":{"username":[{"code":"too_short","message":"…"}]}}}
/// ```
struct Failure: Encodable {
    let status: ExitStatus
    let code: String
    let message: String
    var fields: [String: [FieldError]]?
    var retryAfter: Int?
    var server: String?

    /// What people read on standard error.
    var text: String

    /// `error` as this command line tells it.
    static func of(_ error: any Error, server: URL?, _ language: Language) -> Failure {
        let say = { (english: String, korean: String) in language == .ko ? korean : english }
        switch error {
        case let error as UsageError:
            if let (field, problem) = error.refused {
                return Failure(
                    status: .refused, code: "validation_failed", message: Messages.detail(.validationFailed, language),
                    fields: [field: [problem]], text: error.message)
            }
            let help = say("Run 'account --help' for usage.", "사용법은 'account --help'로 볼 수 있어요.")
            return Failure(status: .usage, code: "usage", message: error.message, text: "account: \(error.message)\n\(help)")
        case let error as Refusal:
            return Failure(status: .refused, code: error.code, message: error.message, text: error.message)
        case let error as AccountError:
            return of(error, server: server, language)
        case let error as CredentialStoreError:
            let message = error.localizedDescription(in: language)
            return Failure(status: .refused, code: "storage", message: message, text: message)
        default:
            let message = String(describing: error)
            return Failure(status: .refused, code: "failed", message: message, text: "account: \(message)")
        }
    }

    private static func of(_ error: AccountError, server: URL?, _ language: Language) -> Failure {
        let message: String
        if case .transport = error {
            let url = server?.absoluteString ?? "?"
            message = language == .ko
                ? "서버(\(url))에 연결할 수 없어요. 서버가 실행 중인지, 주소가 맞는지 확인해 주세요."
                : "Cannot reach the server at \(url). Check that it is running and that the address is right."
        } else {
            message = error.localizedDescription(in: language)
        }
        var failure = Failure(status: error.isTransport ? .unreachable : .refused, code: error.code, message: message, text: message)
        let fields = error.fieldErrors
        if !fields.isEmpty {
            failure = Failure(
                status: .refused, code: error.code, message: Messages.detail(.validationFailed, language), fields: fields,
                text: FieldLabel.ordered(fields.keys).flatMap { field in
                    (fields[field] ?? []).map { FieldLabel.line(field, $0.message, language) }
                }.joined(separator: "\n"))
        }
        if case .rateLimited(let seconds) = error { failure.retryAfter = seconds }
        if error.isTransport { failure.server = server?.absoluteString }
        return failure
    }

    /// The `--json` form: `{"error": {...}}`, keys sorted.
    func json() -> String {
        let encoder = AccountJSON.makeEncoder()
        let data = (try? encoder.encode(["error": self])) ?? Data(#"{"error":{"code":"failed"}}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }

    enum CodingKeys: String, CodingKey {
        case code, message, fields, server
        case retryAfter = "retry_after"
    }
}

extension AccountError {
    /// The code a script can rely on: the server's problem code, or the client's own for failures
    /// that never reached it.
    var code: String {
        switch self {
        case .invalidInput: "validation_failed"
        case .proofRequired: "proof_required"
        case .invalidCredentials: "invalid_credentials"
        case .emailNotVerified: "email_not_verified"
        case .conflict(let code), .codeRejected(let code), .sessionRevoked(let code): code.rawValue
        case .rateLimited: "rate_limited"
        case .sessionExpired: "token_expired"
        case .notSignedIn: "not_signed_in"
        case .refused(let problem): problem.code.rawValue
        case .server(_, let problem): problem?.code.rawValue ?? "server_error"
        case .undecodableReply: "undecodable_reply"
        case .transport: "unreachable"
        case .storage: "storage"
        case .secondFactorRequired: "mfa_required"
        case .secondFactorChallengeEnded(let code): code.rawValue
        }
    }

    var isTransport: Bool {
        if case .transport = self { return true }
        return false
    }
}
