import AccountAPI
import AccountCore
import Foundation
import HTTPServer

extension HTTPResponse {
    /// A JSON reply with `status`.
    static func json<Body: Encodable>(_ body: Body, status: Int = 200) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: [UInt8](try JSONCoding.encoder.encode(body)))
    }

    /// A token pair as JSON (`200`, or `201` for a sign-up).
    static func tokenPair(_ pair: TokenPair, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: WireJSON.tokenPair(pair))
    }

    /// `200` with an account as JSON.
    static func profile(_ user: User) -> HTTPResponse {
        profile(json: WireJSON.user(user))
    }

    /// `200` with an account's JSON already written (``ProfileBodies``).
    static func profile(json: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: json)
    }

    /// `204 No Content`.
    static let noContent = HTTPResponse(status: 204)
}

extension RequestContext {
    /// Decodes the JSON object body into `Body`.
    ///
    /// Refuses, without changing anything: an empty body or malformed JSON, a value that is not an
    /// object, a field of the wrong type or invalid UTF-8 (400 `invalid_request`). Unknown fields
    /// are ignored; missing ones decode as `nil` for the handler to report as `required`.
    func decodeBody<Body: Decodable>(_ type: Body.Type) throws -> Body {
        guard !request.body.isEmpty else {
            throw APIError.invalidRequest(LocalizedText(
                en: "The request needs a JSON object body.", ko: "요청 본문에 JSON 객체가 필요합니다."))
        }
        // Foundation's decoder repairs some invalid UTF-8; docs/API.md wants it refused.
        guard String(validating: request.body, as: UTF8.self) != nil else {
            throw APIError.invalidRequest(LocalizedText(en: "The body is not valid UTF-8.", ko: "본문이 올바른 UTF-8이 아닙니다."))
        }
        do {
            return try JSONCoding.decoder.decode(Body.self, from: Data(request.body))
        } catch let DecodingError.typeMismatch(_, context) {
            throw APIError.invalidRequest(Self.wrongType(context))
        } catch let DecodingError.valueNotFound(_, context) {
            throw APIError.invalidRequest(Self.wrongType(context))
        } catch {
            throw APIError.invalidRequest(LocalizedText(
                en: "The body is not valid JSON.", ko: "본문이 올바른 JSON이 아닙니다."))
        }
    }

    private static func wrongType(_ context: DecodingError.Context) -> LocalizedText {
        guard let field = context.codingPath.first?.stringValue else {
            return LocalizedText(en: "The body must be a JSON object.", ko: "본문은 JSON 객체여야 합니다.")
        }
        // The field name comes from our own coding keys, never from the request's values.
        return LocalizedText(en: "The field \"\(field)\" has the wrong type.", ko: "\"\(field)\" 필드의 형식이 올바르지 않습니다.")
    }
}
