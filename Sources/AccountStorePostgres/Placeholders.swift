/// The store's `?` placeholders (``SQLStatement``) rewritten as PostgreSQL's `$1`, `$2`, …, in
/// order; done once per statement and connection, when the statement is prepared.
///
/// A `?` inside a quoted string or identifier (`'…'`, `"…"`) or a `--` comment is left alone.
///
/// ```swift
/// Placeholders.numbered("UPDATE outbox SET attempts = ? WHERE id = ?")
/// // "UPDATE outbox SET attempts = $1 WHERE id = $2"
/// ```
enum Placeholders {
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var closing: Character?  // the quote or line end that ends what we are inside
        for character in sql {
            if let end = closing {
                if character == end { closing = nil }
                result.append(character)
                continue
            }
            switch character {
            case "?":
                number += 1
                result += "$\(number)"
                continue
            case "'", "\"":
                closing = character
            case "-" where result.hasSuffix("-"):
                closing = "\n"
            default:
                break
            }
            result.append(character)
        }
        return result
    }
}
