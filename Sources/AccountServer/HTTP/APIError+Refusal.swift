import AccountAPI
import AccountCore
import HTTPServer

extension APIError {
    /// The reply to a refused access token: `token_expired` when it ran out, `token_invalid` for
    /// anything else. The body says no more; the reason goes to the log line (``AccountApp/handle(_:)``).
    init(_ error: TokenError) {
        self = error == .expired ? .tokenExpired : .tokenInvalid()
    }

    /// The reply to a request the HTTP layer refused before routing it.
    static func refusal(_ refusal: HTTPRefusal) -> APIError {
        switch refusal {
        case .malformed(let rule): .invalidRequest(malformedDetail(rule))
        case .requestTimeout: .requestTimeout
        case .lengthRequired: .lengthRequired
        case .payloadTooLarge: .payloadTooLarge
        case .uriTooLong: .uriTooLong
        case .headerFieldsTooLarge: .headerFieldsTooLarge
        case .versionNotSupported: .versionNotSupported
        }
    }

    private static func malformedDetail(_ rule: MalformedRequest) -> LocalizedText {
        switch rule {
        case .framing:
            LocalizedText(
                en: "The request is not well-formed HTTP/1.1: check the request line, the line endings (CRLF) and each header line.",
                ko: "요청이 올바른 HTTP/1.1 형식이 아니에요. 요청 줄, 줄바꿈(CRLF), 각 헤더 줄을 확인해 주세요.")
        case .host:
            LocalizedText(
                en: "An HTTP/1.1 request needs exactly one valid Host header.",
                ko: "HTTP/1.1 요청에는 올바른 Host 헤더가 정확히 하나 있어야 해요.")
        case .contentLength:
            LocalizedText(
                en: "Send Content-Length once, as a plain decimal number, and never beside Transfer-Encoding.",
                ko: "Content-Length는 한 번만, 부호 없는 십진수로 보내고 Transfer-Encoding과 함께 보내지 마세요.")
        case .target:
            LocalizedText(
                en: "The path or query holds a control character or a malformed percent-encoding.",
                ko: "경로나 쿼리에 제어 문자 또는 잘못된 퍼센트 인코딩이 들어 있어요.")
        }
    }
}
