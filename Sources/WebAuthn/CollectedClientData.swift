import AccountAPI
import Foundation

/// `clientDataJSON` as the client collected it (WebAuthn §5.8.1): what the browser or platform
/// says the ceremony was, for which challenge, on which origin.
public struct CollectedClientData: Sendable, Equatable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge, decoded from its base64url.
    public let challenge: [UInt8]
    /// The origin the ceremony ran on, as the client wrote it.
    public let origin: String
    /// Whether it ran in a cross-origin frame (absent: not).
    public let crossOrigin: Bool?

    /// Longer client data is refused unread (real ones are a few hundred bytes).
    public static let maximumSize = 4096

    /// Parses `json` (the exact bytes the signature covers).
    /// - Throws: ``WebAuthnError/malformedClientData`` unless it is a JSON object of at most
    ///   ``maximumSize`` bytes whose `type`, `challenge` (unpadded base64url) and `origin` are strings.
    public init(json: [UInt8]) throws(WebAuthnError) {
        struct Fields: Decodable {
            let type: String
            let challenge: String
            let origin: String
            let crossOrigin: Bool?
        }
        guard json.count <= Self.maximumSize,
            let fields = try? JSONDecoder().decode(Fields.self, from: Data(json)),
            let challenge = Base64URL.decode(fields.challenge), !challenge.isEmpty
        else { throw .malformedClientData }
        self.type = fields.type
        self.challenge = challenge
        self.origin = fields.origin
        self.crossOrigin = fields.crossOrigin
    }
}
