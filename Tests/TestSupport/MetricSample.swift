import Foundation
import Testing

extension TestServer {
    /// The value of one sample of `GET /metrics`, named as the exposition writes it
    /// (`account_logins_total{outcome="success"}`); requires it to be there.
    public func metric(_ sample: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        let text = try await send("GET", "/metrics").text
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }, "\(sample) in /metrics", sourceLocation: sourceLocation)
        return try #require(Int(line.dropFirst(sample.count + 1)), "\(line)", sourceLocation: sourceLocation)
    }
}
