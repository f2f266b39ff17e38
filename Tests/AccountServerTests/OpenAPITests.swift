import AccountAPI
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

@Suite("GET /openapi.json documents the whole API")
struct OpenAPITests {
    private func document(_ harness: Harness) async throws -> [String: Any] {
        let reply = try await harness.send("GET", "/openapi.json")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        return json
    }

    @Test("it is JSON, OpenAPI 3.1.0, with the configured issuer as its server")
    func shape() async throws {
        let harness = try await Harness.make { $0.issuer = "https://accounts.example.org" }
        let document = try await document(harness)
        #expect(document["openapi"] as? String == "3.1.0")
        let servers = try #require(document["servers"] as? [[String: Any]])
        #expect(servers.first?["url"] as? String == "https://accounts.example.org")
        let schemes = (document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
        let bearer = try #require(schemes?["bearer"] as? [String: String])
        #expect(bearer == ["type": "http", "scheme": "bearer", "bearerFormat": "JWT", "description": bearer["description"] ?? ""])
    }

    @Test("every route the router knows is documented, and every documented operation is routed")
    func everyRoute() async throws {
        let harness = try await Harness.make()
        let paths = try #require(try await document(harness)["paths"] as? [String: [String: Any]])
        let routes = harness.app.routes
        #expect(routes.count >= 20)
        for route in routes {
            #expect(paths[route.path]?[route.method.lowercased()] != nil, "\(route.method) \(route.path) is not in openapi.json")
        }
        let routed = Set(routes.map { "\($0.method.lowercased()) \($0.path)" })
        for (path, item) in paths {
            for method in item.keys {
                #expect(routed.contains("\(method) \(path)"), "\(method) \(path) is documented but not routed")
            }
        }
    }

    @Test("every $ref resolves inside the document")
    func referencesResolve() async throws {
        let document = try await document(try await Harness.make())
        var references: [String] = []
        Self.collectReferences(document, into: &references)
        #expect(references.count > 50)
        for reference in references {
            #expect(reference.hasPrefix("#/"), "\(reference) points outside the document")
            #expect(Self.resolve(reference, in: document) != nil, "\(reference) does not resolve")
        }
    }

    @Test("operations marked with bearer security answer 401 without a token, the others never do")
    func securityMatchesServer() async throws {
        let harness = try await Harness.make()
        let paths = try #require(try await document(harness)["paths"] as? [String: [String: [String: Any]]])
        for (path, item) in paths {
            for (method, operation) in item {
                let concrete = path.replacingOccurrences(of: "{id}", with: UUID().uuidString.lowercased())
                let reply = try await harness.send(method.uppercased(), concrete)
                if operation["security"] != nil {
                    #expect(reply.status == 401 && reply.code == "token_invalid", "\(method) \(path): \(reply.status)")
                } else {
                    #expect(reply.status != 401, "\(method) \(path) asks for a token but documents none")
                }
                let documented = (operation["responses"] as? [String: Any])?.keys.contains(String(reply.status)) ?? false
                #expect(documented, "\(method) \(path) answered an undocumented \(reply.status)")
            }
        }
    }

    @Test("the account search documents both of its orders, short pages, and a cursor long enough for an address key")
    func accountSearchContract() async throws {
        let harness = try await Harness.make()
        let paths = try #require(try await document(harness)["paths"] as? [String: [String: [String: Any]]])
        let search = try #require(paths["/admin/api/users"]?["get"])
        let description = try #require(search["description"] as? String)
        for phrase in ["Without `q` newest first", "with `q` in the order", "fewer rows than `limit`", "Only `next: null` ends it"] {
            #expect(description.contains(phrase), "\(phrase)")
        }
        let parameters = try #require(search["parameters"] as? [[String: Any]])
        let after = try #require(parameters.first { $0["name"] as? String == "after" })
        #expect((after["schema"] as? [String: Any])?["maxLength"] as? Int == 2048)
        #expect(parameters.filter { $0["name"] as? String == "after" }.count == 1)
    }

    @Test("real replies match their documented schemas")
    func repliesMatchSchemas() async throws {
        let harness = try await Harness.make()
        let document = try await document(harness)
        let checker = SchemaChecker(document: document)
        func check(_ reply: Reply, _ schema: String, _ label: String) throws {
            let value = try JSONSerialization.jsonObject(with: reply.body, options: .fragmentsAllowed)
            let problems = checker.check(value, against: ["$ref": "#/components/schemas/\(schema)"], at: label)
            #expect(problems.isEmpty, "\(label): \(problems)")
        }
        let email = "docs@example.com"
        let password = "correct horse battery"
        let signUp = try await harness.send("POST", "/auth/signup", json: ["username": "문서", "email": email, "password": password, "mbti": "intj"])
        try check(signUp, "SignUpAccepted", "sign-up")
        let code = try #require(try await harness.latestCode(to: email))
        try check(try await harness.send("POST", "/auth/email/verify", json: ["email": email, "code": code]), "EmailVerified", "verify")
        let login = try await harness.send("POST", "/auth/login", json: ["email": email, "password": password])
        try check(login, "TokenPair", "login")
        let token = try #require(login["access"] as? String)
        try check(try await harness.send("GET", "/auth/me", token: token), "User", "me")
        try check(try await harness.send("GET", "/auth/sessions", token: token, headers: ["User-Agent": "tests"]), "SessionList", "sessions")
        try check(try await harness.send("GET", "/auth/policy"), "Policy", "policy")
        try check(try await harness.send("GET", "/.well-known/jwks.json"), "JWKSet", "jwks")
        try check(try await harness.send("GET", "/readyz"), "Status", "readyz")
        try check(try await harness.send("POST", "/auth/email/code", json: ["email": email, "purpose": "verify"]), "EmailCodeSent", "email code")
        let pending = try await harness.send("POST", "/auth/signup", json: ["username": "문서둘", "email": "docs2@example.com", "password": password, "mbti": "intj"])
        let second = try #require(try await harness.latestCode(to: "docs2@example.com"))
        let signedIn = try await harness.send("POST", "/auth/email/verify", json: [
            "email": "docs2@example.com", "code": second, "sign_in": true, "signup_token": pending["signup_token"] ?? "",
        ])
        #expect(signedIn["session"] != nil)
        try check(signedIn, "EmailVerified", "verify and sign in")
        let invalid = try await harness.send("POST", "/auth/signup", json: ["username": "1", "email": "x", "password": "short", "mbti": "XXXX"])
        #expect(invalid.status == 422)
        try check(invalid, "Problem", "validation problem")
        try check(try await harness.send("GET", "/auth/me"), "Problem", "401 problem")
    }

    static func collectReferences(_ value: Any, into references: inout [String]) {
        if let object = value as? [String: Any] {
            if let reference = object["$ref"] as? String { references.append(reference) }
            for member in object.values { collectReferences(member, into: &references) }
        } else if let array = value as? [Any] {
            for item in array { collectReferences(item, into: &references) }
        }
    }

    /// Follows a JSON Pointer fragment (RFC 6901) such as `#/components/schemas/User`.
    static func resolve(_ reference: String, in document: Any) -> Any? {
        guard reference.hasPrefix("#/") else { return nil }
        var current: Any? = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            current = (current as? [String: Any])?[key]
        }
        return current
    }
}

/// The part of JSON Schema this document uses: `$ref`, `type` (one or a list), `properties`
/// (strictly: a reply must not carry an undocumented field), `required`, `items`,
/// `additionalProperties`, `enum`, `const`, `format: uuid`/`date-time`, string lengths.
private struct SchemaChecker {
    let document: [String: Any]

    func check(_ value: Any, against schema: [String: Any], at path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            guard let target = OpenAPITests.resolve(reference, in: document) as? [String: Any] else { return ["\(path): \(reference) unresolved"] }
            return check(value, against: target, at: path)
        }
        var problems: [String] = []
        let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        if !types.isEmpty, !types.contains(where: { Self.matches(value, type: $0) }) {
            return ["\(path): \(value) is not \(types)"]
        }
        if let choices = schema["enum"] as? [String], !choices.contains(where: { $0 == value as? String }) {
            problems.append("\(path): \(value) not in enum")
        }
        if let constant = schema["const"], "\(constant)" != "\(value)" { problems.append("\(path): \(value) is not \(constant)") }
        if let text = value as? String {
            if let min = schema["minLength"] as? Int, text.unicodeScalars.count < min { problems.append("\(path): too short") }
            if let max = schema["maxLength"] as? Int, text.unicodeScalars.count > max { problems.append("\(path): too long") }
            if schema["format"] as? String == "uuid", UUID(uuidString: text) == nil { problems.append("\(path): not a uuid") }
            if schema["format"] as? String == "date-time", RFC3339.date(from: text) == nil { problems.append("\(path): not a date-time") }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil { problems.append("\(path).\(name): missing") }
            for (name, member) in object {
                if let property = properties[name] {
                    problems += check(member, against: property, at: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    problems += check(member, against: additional, at: "\(path).\(name)")
                } else {
                    problems.append("\(path).\(name): not documented")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { problems += check(item, against: items, at: "\(path)[\(index)]") }
        }
        return problems
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return (value as? NSNumber).map(isBoolean) ?? false
        case "integer", "number":
            guard let number = value as? NSNumber, !isBoolean(number) else { return false }
            return type == "number" || number.doubleValue == number.doubleValue.rounded()
        default: return false
        }
    }

    // JSONSerialization gives booleans as NSNumbers of ObjC type `c` (char), on Linux and Apple alike.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}

extension OpenAPITests {
    @Test("sessions, the account's own and on the admin account page, document their client address: required, nullable, bounded")
    func sessionAddresses() async throws {
        let document = try await document(try await Harness.make())
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let own = try #require(schemas["SessionInfo"] as? [String: Any])
        let page = try #require(schemas["AdminAccountPage"] as? [String: Any])
        let adminSession = try #require(
            ((page["properties"] as? [String: Any])?["sessions"] as? [String: Any])?["items"] as? [String: Any])
        for session in [own, adminSession] {
            #expect((session["required"] as? [String])?.contains("client_address") == true)
            let address = try #require((session["properties"] as? [String: Any])?["client_address"] as? [String: Any])
            #expect(address["maxLength"] as? Int == 64)
            #expect(address["type"] as? [String] == ["string", "null"], "\(address)")
            #expect((address["description"] as? String)?.contains("Not kept") == false)
        }
    }
}
