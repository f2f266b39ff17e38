import AccountAPI
import Foundation
import HTTPServer

/// One HTTP reply as a test reads it, from ``HTTPClient``, ``RawHTTP`` or an app in the test
/// process: status, header fields in the order they came, and body.
public struct Reply: Sendable {
    /// One header line: the name as sent and the value without surrounding spaces.
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public let status: Int
    public let fields: [Field]
    public let body: Data

    public init(status: Int, fields: [Field], body: Data) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// The reply an app in the test process answered with.
    public init(response: HTTPResponse) {
        self.init(
            status: response.status, fields: response.headers.map { Field(name: $0.name, value: $0.value) },
            body: Data(response.body))
    }

    /// The first value of a header, by name in any letter case.
    public func header(_ name: String) -> String? { values(name).first }

    /// Every value of a header, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The body decoded as the API's JSON.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try AccountJSON.makeDecoder().decode(type, from: body)
        } catch {
            throw TestFailure("status \(status), cannot decode \(T.self) from \(text): \(error)")
        }
    }

    /// The body as an RFC 9457 problem.
    public var problem: Problem? { try? AccountJSON.makeDecoder().decode(Problem.self, from: body) }

    /// The body as a JSON object, as a client without the SDK reads it.
    public var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

    /// The body as text (invalid UTF-8 shown as replacement characters).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object; empty when it is none.
    public var json: [String: Any] { object ?? [:] }

    /// A member of the body's JSON object.
    public subscript(_ key: String) -> Any? { json[key] }

    /// The problem's `code`, as the wire spells it; `nil` for a body without one.
    public var code: String? { json["code"] as? String }

    /// The codes of one field's errors in a `422` (`errors.<field>[].code`).
    public func fieldCodes(_ field: String) -> [String] {
        ((json["errors"] as? [String: Any])?[field] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
    }
}
