import Foundation
import AccountAPI
import AccountStore

/// A second factor as a request gives it (`code` or `recovery_code`), checked for its form.
package enum SecondFactorProof: Sendable {
    /// Six digits from the authenticator app.
    case code(String)
    /// A recovery code, as typed.
    case recoveryCode(String)

    /// The proof in a request's `code` and `recovery_code`, or `nil` with the field errors added
    /// to `errors`: neither is `code` `required`, a malformed one `invalid_format`.
    /// - Throws: `invalid_request` when both are given.
    package static func parse(code: String?, recoveryCode: String?, into errors: inout FieldErrors) throws -> SecondFactorProof? {
        if code != nil && recoveryCode != nil {
            throw APIError.invalidRequest(LocalizedText(
                en: "Send either code or recovery_code, not both.", ko: "code와 recovery_code 중 하나만 보내 주세요."))
        }
        if let recoveryCode {
            if recoveryCode.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                errors.add(.required, to: "recovery_code")
                return nil
            }
            guard RecoveryCodeRule.normalize(recoveryCode) != nil else {
                errors.add(.invalidFormat, to: "recovery_code")
                return nil
            }
            return .recoveryCode(recoveryCode)
        }
        let codeErrors = code.map(CodeRule.validate) ?? [.required]
        guard codeErrors.isEmpty, let code else {
            errors.add(contentsOf: codeErrors, to: "code")
            return nil
        }
        return .code(CodeRule.normalize(code))
    }
}
