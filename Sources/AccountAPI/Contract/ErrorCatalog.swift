/// Every problem code of the API in one table: the statuses it comes with, its title and detail
/// in every language, and its line in docs/API.md's `## Error codes` table; every field error
/// code likewise; and the shared reply of each error status.
///
/// The server answers with these texts (``Messages`` reads them), `/openapi.json` lists these
/// codes and replies, and AccountKit words its errors with them.
///
/// ```swift
/// ErrorCatalog.entry(.rateLimited)?.status        // 429
/// ErrorCatalog.entry(.rateLimited)?.title(.ko)    // "요청이 너무 많아요"
/// ```
public enum ErrorCatalog {
    /// Who sends a code.
    public enum Sender: Sendable, Hashable {
        /// The server, as a problem's `code`.
        case server
        /// Only the SDK, as its name for a kind of reply (``ErrorCode/emailTaken``).
        case sdk
    }

    /// One problem code.
    public struct Entry: Sendable {
        public let code: ErrorCode
        /// The status the code usually comes with.
        public let status: Int
        /// Every status the code comes with, ``status`` first.
        public let statuses: [Int]
        public let sender: Sender
        /// The problem's `title`.
        public let title: LocalizedText
        /// The problem's `detail` (and `message`), unless the server gives a more specific one.
        public let detail: LocalizedText
        /// What the code means: its row's text in docs/API.md.
        public let doc: String

        init(
            _ code: ErrorCode, _ status: Int, also: [Int] = [], sentBy sender: Sender = .server, title: LocalizedText,
            detail: LocalizedText, doc: String
        ) {
            self.code = code
            self.status = status
            self.statuses = [status] + also
            self.sender = sender
            self.title = title
            self.detail = detail
            self.doc = doc
        }
    }

    /// One field error code (inside `errors` of a `validation_failed` problem).
    public struct FieldEntry: Sendable {
        public let code: FieldErrorCode
        /// What the code means: its row's text in docs/API.md.
        public let doc: String

        init(_ code: FieldErrorCode, doc: String) {
            self.code = code
            self.doc = doc
        }
    }

    /// The entry of `code`, or `nil` for a code this version does not know.
    public static func entry(_ code: ErrorCode) -> Entry? { byCode[code] }

    /// The codes the server sends, in the catalog's order.
    public static var serverCodes: [ErrorCode] { entries.filter { $0.sender == .server }.map(\.code) }

    /// The title and detail of a code this version does not know (from a newer server).
    public static let unknownTitle = LocalizedText(en: "Something went wrong", ko: "문제가 발생했어요")
    public static let unknownDetail = LocalizedText(en: "The request could not be completed.", ko: "요청을 처리하지 못했어요.")

    /// The texts between pairs of backticks: the codes a reply's description names.
    public static func codeSpans(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private static let byCode = Dictionary(uniqueKeysWithValues: entries.map { ($0.code, $0) })
}
