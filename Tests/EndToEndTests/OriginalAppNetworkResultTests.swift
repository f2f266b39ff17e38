import Foundation
import TestSupport
import Testing

/// The original app's second network pattern, copied small: every reply decoded leniently as a
/// `GenericResponse<T>` (`status`, `success`, `message`, `data`, all optional, plain keys), and a
/// `NetworkResult` chosen by the HTTP status. A refusal shows the `message` it decoded, so every
/// problem the real binary writes must carry the server's words there.
@Suite struct OriginalAppNetworkResultTests {
    /// The app's envelope: any member may be missing or of another type and the rest still decodes.
    struct GenericResponse<T: Decodable>: Decodable {
        let status: Int?
        let success: Bool?
        let message: String?
        let data: T?

        enum CodingKeys: String, CodingKey { case status, success, message, data }

        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            status = (try? values.decodeIfPresent(Int.self, forKey: .status)) ?? nil
            success = (try? values.decodeIfPresent(Bool.self, forKey: .success)) ?? nil
            message = (try? values.decodeIfPresent(String.self, forKey: .message)) ?? nil
            data = (try? values.decodeIfPresent(T.self, forKey: .data)) ?? nil
        }
    }

    /// What a screen is told, by the HTTP status as the app decides it.
    enum NetworkResult<T> {
        case success(T?)
        /// A 4xx: the message the app shows, empty when the body had none.
        case requestErr(String)
        /// The body was not an envelope at all.
        case pathErr
        case serverErr
        case networkFail
    }

    /// The tokens a login's `data` would hold.
    struct LoginData: Decodable {
        let access: String?
        let refresh: String?
    }

    /// The app's status judgement, unchanged in spirit: decode first, then switch on the status.
    static func judge<T: Decodable>(_ status: Int, _ body: Data, as _: T.Type = T.self) -> NetworkResult<T> {
        guard let decoded = try? JSONDecoder().decode(GenericResponse<T>.self, from: body) else { return .pathErr }
        switch status {
        case 200..<300: return .success(decoded.data)
        case 400..<500: return .requestErr(decoded.message ?? "")
        case 500..<600: return .serverErr
        default: return .networkFail
        }
    }

    /// The text a refused request shows, or a failure naming what the app got instead.
    static func shownMessage(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard case .requestErr(let message) = judge(reply.status, reply.body, as: LoginData.self) else {
            Issue.record("status \(reply.status) is not a request error to the app: \(reply.text)", sourceLocation: sourceLocation)
            return nil
        }
        return message
    }

    /// The app shows the server's words for a refused login: non-empty and the problem's `detail`,
    /// in Korean when it asks for Korean.
    @Test func aRefusedLoginShowsTheServersWordsInTheAsksLanguage() async throws {
        let server = try await ServerProcess.start()
        let (account, _) = try await server.verifiedAccount("generic")
        let wrong: [String: Any] = ["username": account.username, "password": account.password + "-wrong"]

        let english = try await server.client.send("POST", "/auth/login", json: wrong)
        #expect(english.status == 401)
        let shown = Self.shownMessage(english)
        #expect(shown?.isEmpty == false, "the app shows an empty message: \(english.text)")
        #expect(shown == english.problem?.detail)

        let korean = try await server.client.send("POST", "/auth/login", json: wrong, headers: ["Accept-Language": "ko"])
        #expect(korean.status == 401)
        let shownInKorean = Self.shownMessage(korean)
        #expect(shownInKorean?.isEmpty == false, "the app shows an empty message: \(korean.text)")
        #expect(shownInKorean == korean.problem?.detail)
        #expect(shownInKorean != shown)
        #expect(shownInKorean?.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } == true, "\(shownInKorean ?? "")")
        await server.stop()
    }

    /// A request the HTTP layer refuses before routing (a `Content-Length` that is not a number)
    /// carries `message` too, in the language asked for.
    @Test func aRefusalOfTheHTTPLayerShowsTheServersWordsToo() async throws {
        let server = try await ServerProcess.start()
        for language in ["en", "ko"] {
            let conversation = try await RawHTTP.converse(
                port: server.port,
                "POST /auth/login HTTP/1.1\r\nHost: x\r\nAccept-Language: \(language)\r\nContent-Length: 1e3\r\n\r\n{}")
            let reply = try #require(conversation.replies.first, "\(conversation.text)")
            #expect(reply.status == 400)
            let shown = Self.shownMessage(reply)
            #expect(shown?.isEmpty == false, "the app shows an empty message: \(reply.text)")
            #expect(shown == reply.problem?.detail)
        }
        await server.stop()
    }
}
