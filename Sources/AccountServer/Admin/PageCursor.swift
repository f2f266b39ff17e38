import AccountAPI
import AccountCore
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

    /// The `after` cursor of the account search: a time cursor (above) for a search without a
    /// prefix, else `n:` or `e:` and the last nickname or address key (unique, so the key alone
    /// says where the next page starts). Opaque to clients; up to 2,048 characters (a key's 254
    /// characters may take 4 bytes each).
    static func text(_ position: AdminSearchPosition) -> String {
        switch position {
        case .time(let time): text(time)
        case .nicknameKey(let key): Base64URL.encode(Array(("n:" + key).utf8))
        case .emailKey(let key): Base64URL.encode(Array(("e:" + key).utf8))
        }
    }

    /// The search position `text` names; `nil` for anything this server did not write.
    static func searchPosition(_ text: String) -> AdminSearchPosition? {
        guard text.utf8.count <= 2048, let bytes = Base64URL.decode(text), let plain = String(validating: bytes, as: UTF8.self) else { return nil }
        if plain.hasPrefix("n:") || plain.hasPrefix("e:") {
            let key = String(plain.dropFirst(2))
            guard !key.isEmpty else { return nil }
            return plain.hasPrefix("n:") ? .nicknameKey(key) : .emailKey(key)
        }
        return position(text).map(AdminSearchPosition.time)
    }

    /// The `limit` of a list request, and its `after` as `parse` reads it (`nil` for a bad one).
    static func page<Position>(_ context: RequestContext, defaultLimit: Int = 50, _ parse: (String) -> Position?) throws -> (limit: Int, after: Position?) {
        var limit = defaultLimit
        if let text = context.request.query["limit"] {
            guard let value = Int(text), (1...100).contains(value) else { throw invalidLimit }
            limit = value
        }
        guard let text = context.request.query["after"] else { return (limit, nil) }
        guard let after = parse(text) else { throw APIError.invalidAfter }
        return (limit, after)
    }

    static let invalidLimit = APIError.invalidRequest(LocalizedText(
        en: "limit must be a whole number from 1 to 100.", ko: "limit은 1에서 100 사이의 정수여야 해요."))

    /// The `limit` and `after` of a list request: `limit` 1 to 100 (default `defaultLimit`), `after` a cursor.
    static func page(_ context: RequestContext, defaultLimit: Int = 50) throws -> (limit: Int, after: KeysetPosition?) {
        try page(context, defaultLimit: defaultLimit, position)
    }
}
