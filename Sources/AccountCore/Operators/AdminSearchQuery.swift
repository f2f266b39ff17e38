import AccountAPI
import AccountStore
import Foundation

/// The account search's filters read from named text values: the query string of
/// `GET /admin/api/users` and the options of `account-server admin users search` alike.
package enum AdminSearchQuery {
    /// A filter value that is not what its name takes; `text` says which and why.
    package struct Invalid: Error {
        package let text: LocalizedText
    }

    /// The longest `q`, in characters (an address's longest).
    package static let maxTextLength = 254

    /// The query of the values `value(name)` gives for `q`, `verified`, `mfa`, `disabled`,
    /// `created_after` and `created_before`.
    package static func parse(_ value: (String) -> String?) throws(Invalid) -> AdminUserQuery {
        var query = AdminUserQuery()
        if let raw = value("q") {
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.count <= maxTextLength else {
                throw Invalid(text: LocalizedText(en: "q must be at most 254 characters.", ko: "q는 254자 이하여야 해요."))
            }
            if text.contains("@") {
                query.prefix = .emailKey(EmailRule.key(EmailRule.normalize(text)))
            } else if !text.isEmpty {
                query.prefix = .nicknameKey(UsernameRule.key(UsernameRule.normalize(text)))
            }
        }
        query.verified = try flag("verified", value)
        query.mfa = try flag("mfa", value)
        query.disabled = try flag("disabled", value)
        query.createdAfter = try time("created_after", value)
        query.createdBefore = try time("created_before", value)
        return query
    }

    private static func flag(_ name: String, _ value: (String) -> String?) throws(Invalid) -> Bool? {
        switch value(name) {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw Invalid(text: LocalizedText(en: "\(name) must be true or false.", ko: "\(name)에는 true나 false를 보내 주세요."))
        }
    }

    private static func time(_ name: String, _ value: (String) -> String?) throws(Invalid) -> Date? {
        guard let text = value(name) else { return nil }
        guard let date = RFC3339.date(from: text) else {
            throw Invalid(text: LocalizedText(
                en: "\(name) must be an RFC 3339 time such as 2026-11-30T09:00:00Z.",
                ko: "\(name)에는 2026-11-30T09:00:00Z 같은 RFC 3339 시각을 보내 주세요."))
        }
        return date
    }
}
