import HTTPServer
import Synchronization

extension AccountApp {
    /// `GET /openapi.json`: the document, encoded on the first request and kept.
    ///
    /// Encoding it took about a tenth of the server's start-up, which every restart pays and few
    /// processes ever need.
    func openAPIHandler() -> Handler {
        let issuer = configuration.issuer
        let document = EncodedOnce { try OpenAPIDocument.encoded(issuer: issuer) }
        return { _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=300"],
                body: try document.value())
        }
    }
}

/// Bytes made by `make` the first time they are asked for, then kept (a failure too).
private final class EncodedOnce: Sendable {
    private let make: @Sendable () throws -> [UInt8]
    private let made = Mutex<Result<[UInt8], any Error>?>(nil)

    init(_ make: @escaping @Sendable () throws -> [UInt8]) { self.make = make }

    func value() throws -> [UInt8] {
        try made.withLock { made in
            if let made { return made }
            let result = Result { try make() }
            made = result
            return result
        }.get()
    }
}
