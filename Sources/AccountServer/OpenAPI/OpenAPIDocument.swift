import AccountAPI
import AccountCore
import Foundation

/// The OpenAPI 3.1 document of the whole API, as `GET /openapi.json` serves it.
///
/// Its operations and error replies are the contract table in AccountAPI (``Endpoint/all``,
/// ``ErrorCatalog``); the schemas of bodies are written here from the types and rules in
/// AccountAPI. `OpenAPITests` keeps it honest (every `$ref` must resolve, real replies match their
/// schemas), `ContractTests` keeps the router to the table, and `APIDocumentTests` keeps
/// docs/API.md, the contract in prose, to the table.
enum OpenAPIDocument {
    /// The document, with `issuer` (the configured `--issuer`) as its server.
    static func make(issuer: String) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for endpoint in Endpoint.all {
            paths[endpoint.path] = (paths[endpoint.path] ?? [:]).merging([endpoint.method.rawValue.lowercased(): Operation.json(endpoint)])
        }
        return [
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
            "info": [
                "title": "MBTI Playground account API",
                "version": "1.0.0",
                "description": .string(description),
            ],
            "servers": [["url": .string(issuer)]],
            "tags": [
                ["name": "Sign-up"], ["name": "Sessions"], ["name": "Account"], ["name": "Password"], ["name": "Second factor"],
                ["name": "Passkeys"], ["name": "Discovery"], ["name": "Operations"], ["name": "Admin"], ["name": "Sign in with Apple"],
            ],
            "paths": .object(paths),
            "components": [
                "schemas": .object(
                    ReplySchemas.all.merging(RequestSchemas.all) { first, _ in first }.merging(ProblemSchemas.all) { first, _ in first }
                        .merging(SecondFactorSchemas.all) { first, _ in first }.merging(PasskeySchemas.all) { first, _ in first }
                        .merging(AdminSchemas.all) { first, _ in first }.merging(ActivitySchemas.all) { first, _ in first }
                        .merging(AppleSchemas.all) { first, _ in first }),
                "responses": .object(ErrorResponses.all),
                "headers": .object(ErrorResponses.headers),
                "securitySchemes": [
                    "bearer": [
                        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                        "description": "An access token from login, refresh or a verified sign-up (Ed25519 JWT, 15 minutes by default). Never in the query string.",
                    ]
                ],
            ],
        ]
    }

    /// The document as JSON bytes (sorted keys, so the same server always serves the same bytes).
    static func encoded(issuer: String) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(make(issuer: issuer)))
    }

    private static let description = """
        The account system of MBTI Playground. Request bodies are JSON objects (`Content-Type: application/json`, \
        at most 64 KiB; unknown fields are ignored); field names are snake_case, times RFC 3339 UTC, ids UUIDs. \
        A trailing slash names the same path. `GET` routes also answer `HEAD`; any other method on a known path is \
        `405 method_not_allowed` with `Allow` (`#/components/responses/MethodNotAllowed`), an unknown path `404 not_found`. \
        Errors are RFC 9457 problem details (`application/problem+json`) whose `code` is stable and whose texts follow \
        `Accept-Language` (`ko` or `en`). Every reply carries `X-Request-Id` and `X-Content-Type-Options: nosniff`; \
        replies under `/auth` carry `Cache-Control: no-store`. Every request under `/auth/` counts toward the per-address \
        limit (100 a minute by default, `429 rate_limited`). No reply tells whether an email address has an account.
        """
}
