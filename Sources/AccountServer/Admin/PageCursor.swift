import AccountAPI
import AccountStore
import Foundation

/// The `after` cursor of a keyset-paged admin list: an opaque base64url text of the last row's
/// sort time (milliseconds) and id, so the next page starts right after it however many rows
/// came or went meanwhile.
enum PageCursor {
    static func text(_ position: KeysetPosition) -> String {
        let milliseconds = Int64((position.time.timeIntervalSince1970 * 1000).rounded())
        return Base64URL.encode(Array("\(milliseconds).\(position.id.lowercasedText)".utf8))
    }

    /// The position `text` names; `nil` for anything this server did not write.
    static func position(_ text: String) -> KeysetPosition? {
        guard text.utf8.count <= 128, let bytes = Base64URL.decode(text), let plain = String(validating: bytes, as: UTF8.self) else { return nil }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = Int64(parts[0]), milliseconds >= 0, let id = UUID(uuidString: String(parts[1])) else {
            return nil
        }
        return KeysetPosition(time: Date(timeIntervalSince1970: Double(milliseconds) / 1000), id: id)
    }

    /// The `limit` and `after` of a list request: `limit` 1 to 100 (default `defaultLimit`), `after` a cursor.
    static func page(_ context: RequestContext, defaultLimit: Int = 50) throws -> (limit: Int, after: KeysetPosition?) {
        var limit = defaultLimit
        if let text = context.request.query["limit"] {
            guard let value = Int(text), (1...100).contains(value) else {
                throw APIError.invalidRequest(LocalizedText(
                    en: "limit must be a whole number from 1 to 100.", ko: "limit은 1에서 100 사이의 정수여야 해요."))
            }
            limit = value
        }
        guard let text = context.request.query["after"] else { return (limit, nil) }
        guard let after = position(text) else {
            throw APIError.invalidRequest(LocalizedText(
                en: "after must be the next cursor of an earlier page.", ko: "after에는 이전 페이지의 next 값을 보내야 해요."))
        }
        return (limit, after)
    }
}
