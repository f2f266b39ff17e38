import Foundation

/// The `User-Agent` AccountKit sends, so the account's sessions list can name each device:
/// `MBTI%20Playground/1.2 (iPhone15,2; iOS 17.4; build 42) AccountKit`.
///
/// The product is the app's name (bytes outside an HTTP token percent-encoded, so a Korean name
/// survives any proxy); the comment holds the device model, the system and its version, and the
/// build. ``deviceName`` reads one back for people; the server names the device of a security
/// event with ``deviceName(of:)``, and clients a session's, so both say the same.
public struct UserAgent: Sendable, Equatable {
    /// The app's name, as people read it.
    public var name: String
    /// The app's version, if known.
    public var version: String?
    /// Comment parts: device model (or host name), system and version, build.
    public var details: [String]

    /// The header value.
    public var header: String {
        var text = Self.escape(name, keeping: Self.tokenCharacters)
        if let version, !version.isEmpty { text += "/" + Self.escape(version, keeping: Self.tokenCharacters) }
        let parts = details.filter { !$0.isEmpty }.map { Self.escape($0, keeping: Self.commentCharacters) }
        if !parts.isEmpty { text += " (" + parts.joined(separator: "; ") + ")" }
        return text + " AccountKit"
    }

    /// Reads a header written by ``header``; `nil` for any other `User-Agent`.
    public init?(header: String) {
        guard header.hasSuffix(" AccountKit") else { return nil }
        var rest = Substring(header.dropLast(" AccountKit".count))
        var details: [String] = []
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            details = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
                .split(separator: ";").map { Self.unescape($0.trimmingCharacters(in: .whitespaces)) }
            rest = rest[..<open]
        }
        let product = rest.trimmingCharacters(in: .whitespaces)
        guard !product.isEmpty, !product.contains(" ") else { return nil }
        let pieces = product.split(separator: "/", maxSplits: 1).map(String.init)
        name = Self.unescape(pieces[0])
        version = pieces.count > 1 ? Self.unescape(pieces[1]) : nil
        self.details = details
    }

    public init(name: String, version: String?, details: [String]) {
        self.name = name
        self.version = version
        self.details = details
    }

    /// "MBTI Playground 1.2 · iPhone15,2 · iOS 17.4": name and version, then the details but the build.
    public var deviceName: String {
        let product = [name, version].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let shown = details.filter { !$0.hasPrefix("build ") }
        return ([product] + shown).joined(separator: " · ")
    }

    /// The device a `User-Agent` header names, for people: ``deviceName`` of one AccountKit wrote,
    /// the header as it is for any other, `nil` for none or an empty one.
    public static func deviceName(of header: String?) -> String? {
        guard let header, !header.isEmpty else { return nil }
        return UserAgent(header: header)?.deviceName ?? header
    }

    // RFC 9110 tchar; and ctext without the `;` that separates our parts.
    private static let tokenCharacters = Set("!#$&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let commentCharacters = tokenCharacters.union(" ,/:=?@[]{}\"<>".utf8)

    private static func escape(_ text: String, keeping allowed: Set<UInt8>) -> String {
        var result = ""
        for byte in text.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    private static func unescape(_ text: String) -> String { text.removingPercentEncoding ?? text }
}
