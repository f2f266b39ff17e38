import AccountAPI
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("GET /metrics in the Prometheus text format")
struct MetricsTests {
    @Test("requests are counted by route pattern, method and status; unknown paths are unmatched")
    func requestCounts() async throws {
        let harness = try await Harness.make()
        let id = UUID().uuidString.lowercased()
        try await harness.send("POST", "/auth/login", json: ["username": "nobody", "password": "whatever pass"])
        try await harness.send("POST", "/auth/login/", json: ["username": "nobody", "password": "whatever pass"])
        try await harness.send("DELETE", "/auth/sessions/\(id)")
        try await harness.send("GET", "/no/such/\(id)")
        try await harness.send("BREW", "/healthz")
        let reply = try await harness.send("GET", "/metrics")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let samples = try Exposition.parse(reply.text).samples

        #expect(samples[#"http_requests_total{method="POST",route="/auth/login",status="401"}"#] == 2)
        #expect(samples[#"http_requests_total{method="DELETE",route="/auth/sessions/{id}",status="401"}"#] == 1)
        #expect(samples[#"http_requests_total{method="GET",route="unmatched",status="404"}"#] == 1)
        #expect(samples[#"http_requests_total{method="OTHER",route="/healthz",status="405"}"#] == 1)
        #expect(!reply.text.contains(id), "a raw id became a label value")
        #expect(samples[#"account_logins_total{outcome="invalid_credentials"}"#] == 2)
        #expect(samples[#"account_logins_total{outcome="success"}"#] == 0)
        #expect(samples[#"password_hash_queue_length"#] == 0)

        let count = samples[#"http_request_duration_seconds_count{route="/auth/login"}"#]
        #expect(count == 2)
        let buckets = DurationHistogram.bounds.map(\.label) + ["+Inf"]
        let values = buckets.compactMap { samples[#"http_request_duration_seconds_bucket{le="\#($0)",route="/auth/login"}"#] }
        #expect(values.count == buckets.count)
        #expect(values == values.sorted(), "buckets must be cumulative")
        #expect(values.last == count)
    }

    @Test("login outcomes: success, email_not_verified and the address limit's rate_limited")
    func loginOutcomes() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(.minsu)
        try await harness.send("POST", "/auth/signup", json: ["username": "미검증", "email": "new@example.com", "password": "correct horse battery", "mbti": "ISTP"])
        let unverified = try await harness.send("POST", "/auth/login", json: ["email": "new@example.com", "password": "correct horse battery"])
        #expect(unverified.status == 403)
        let malformed = try await harness.send("POST", "/auth/login", json: ["password": "correct horse battery"])
        #expect(malformed.status == 422)
        #expect(harness.app.metrics.logins(.success) == 1)
        #expect(harness.app.metrics.logins(.emailNotVerified) == 1)
        #expect(harness.app.metrics.logins(.invalidCredentials) == 0, "a malformed login is no attempt")

        let limited = try await Harness.make { $0.ipRateLimit = 1 }
        try await limited.send("POST", "/auth/login", json: ["username": "nobody", "password": "whatever pass"])
        let refused = try await limited.send("POST", "/auth/login", json: ["username": "nobody", "password": "whatever pass"])
        #expect(refused.status == 429)
        let samples = try Exposition.parse(try await limited.send("GET", "/metrics").text).samples
        #expect(samples[#"account_logins_total{outcome="rate_limited"}"#] == 1)
        #expect(samples[#"account_rate_limited_total"#] == 1)
    }

    @Test("refresh outcomes recorded through the API appear in the text")
    func refreshOutcomes() throws {
        let metrics = Metrics()
        metrics.refresh(.rotated)
        metrics.refresh(.rotated)
        metrics.refresh(.reused)
        let samples = try Exposition.parse(metrics.render(hashQueueLength: 3)).samples
        #expect(samples[#"account_refreshes_total{outcome="rotated"}"#] == 2)
        #expect(samples[#"account_refreshes_total{outcome="reused"}"#] == 1)
        #expect(samples[#"account_refreshes_total{outcome="expired"}"#] == 0)
        #expect(samples["password_hash_queue_length"] == 3)
    }

    @Test("many concurrent recordings lose no count")
    func concurrentRecording() async throws {
        let metrics = Metrics()
        let table = metrics.track(patterns: ["/a", "/b/{id}"])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<2000 {
                group.addTask {
                    let pattern = index.isMultiple(of: 2) ? "/a" : "/b/{id}"
                    table.record(method: index.isMultiple(of: 2) ? "GET" : "POST", pattern: pattern, status: 200, duration: .milliseconds(index % 40))
                    metrics.login(.success)
                }
            }
        }
        let samples = try Exposition.parse(metrics.render(hashQueueLength: 0)).samples
        #expect(samples[#"http_requests_total{method="GET",route="/a",status="200"}"#] == 1000)
        #expect(samples[#"http_requests_total{method="POST",route="/b/{id}",status="200"}"#] == 1000)
        #expect(samples[#"http_request_duration_seconds_count{route="/b/{id}"}"#] == 1000)
        #expect(samples[#"account_logins_total{outcome="success"}"#] == 2000)
    }

    @Test("every (method, status) pair a route sees keeps its own count, past the lock-free table too")
    func manyPairsOnOneRoute() async throws {
        let metrics = Metrics()
        let table = metrics.track(patterns: ["/a"])
        let methods = ["GET", "POST", "DELETE", "BREW"]
        let statuses = [200, 201, 204, 400, 401, 403, 404, 409, 429, 500, 503]  // 44 pairs: more than the table's 16
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<3 {
                for method in methods {
                    for status in statuses {
                        group.addTask { table.record(method: method, pattern: "/a", status: status, duration: .milliseconds(round)) }
                    }
                }
            }
        }
        let samples = try Exposition.parse(metrics.render(hashQueueLength: 0)).samples
        for method in methods {
            for status in statuses {
                let label = method == "BREW" ? "OTHER" : method
                #expect(samples[#"http_requests_total{method="\#(label)",route="/a",status="\#(status)"}"#] == 3, "\(method) \(status)")
            }
        }
        #expect(samples.keys.filter { $0.hasPrefix("http_requests_total{") }.count == methods.count * statuses.count)
    }

    @Test("a duration lands in the bucket of the first bound it does not exceed")
    func histogramBuckets() {
        func expected(_ duration: Duration) -> Int {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return DurationHistogram.bounds.firstIndex { seconds <= $0.seconds } ?? DurationHistogram.bounds.count
        }
        var durations: [Duration] = [.zero, .nanoseconds(1), .seconds(60)]
        for bound in DurationHistogram.bounds {
            let at = Duration.nanoseconds(Int64((bound.seconds * 1e9).rounded()))
            durations += [at, at - .nanoseconds(1), at + .nanoseconds(1), at + .microseconds(1), at - .microseconds(1)]
        }
        let histogram = DurationHistogram()
        for duration in durations {
            let (seconds, attoseconds) = duration.components
            #expect(histogram.bucket(seconds: seconds, attoseconds: attoseconds) == expected(duration), "\(duration)")
        }
    }

    @Test("label values escape backslash, quote and line feed, and parse back")
    func labelEscaping() throws {
        var text = PrometheusText()
        text.family("odd_total", type: "counter", help: "Odd \\ help\nwith a line feed.")
        let value = "a\"b\\c\nd}"
        text.sample("odd_total", ["label": value], 7)
        #expect(text.text.split(separator: "\n").count == 3)
        let parsed = try Exposition.parse(text.text)
        #expect(parsed.labels.first == ["label": value])
        #expect(parsed.samples.values.first == 7)
    }

    @Test("route patterns follow the router: trailing slash, parameters, exact before pattern")
    func routePatterns() {
        var router = Router()
        for path in ["/auth/sessions", "/auth/sessions/{id}", "/auth/me", "/"] {
            let endpoint = Endpoint(.get, path, operationId: "test", tag: "Test", summary: "A route", replies: [])
            router.add(endpoint, in: RouteSet([]), now: { _ in .noContent })
        }
        func pattern(for path: String) -> String { router.match(method: "GET", path: path).pattern ?? Metrics.unmatched }
        #expect(pattern(for: "/auth/sessions/") == "/auth/sessions")
        #expect(pattern(for: "/auth/sessions/123") == "/auth/sessions/{id}")
        #expect(pattern(for: "/auth/sessions/123/x") == Metrics.unmatched)
        #expect(pattern(for: "/auth/me/") == "/auth/me")
        #expect(pattern(for: "/") == "/")
        #expect(pattern(for: "/auth") == Metrics.unmatched)
    }
}

/// A strict reader of the text format 0.0.4: every line is `# HELP`, `# TYPE` or a sample of a
/// declared family; label values are unescaped. Samples are keyed by name and sorted labels.
struct Exposition {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    var samples: [String: Double] = [:]
    var labels: [[String: String]] = []

    static func parse(_ text: String) throws -> Exposition {
        var result = Exposition()
        var types: [String: String] = [:]
        var helps: Set<String> = []
        #expect(text.hasSuffix("\n"), "the text must end with a line feed")
        let name = /[a-zA-Z_:][a-zA-Z0-9_:]*/
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if let match = line.wholeMatch(of: /# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)/) {
                guard helps.insert(String(match.1)).inserted else { throw Malformed(description: "second HELP: \(line)") }
            } else if let match = line.wholeMatch(of: /# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)/) {
                guard types.updateValue(String(match.2), forKey: String(match.1)) == nil else { throw Malformed(description: "second TYPE: \(line)") }
            } else if let match = line.prefixMatch(of: name) {
                let metric = String(match.output)
                var rest = line[match.range.upperBound...]
                var labelSet: [String: String] = [:]
                if rest.first == "{" {
                    rest = rest.dropFirst()
                    labelSet = try parseLabels(&rest)
                }
                guard rest.first == " ", let value = Double(rest.dropFirst()) ?? (rest.dropFirst() == "+Inf" ? .infinity : nil) else {
                    throw Malformed(description: "bad value: \(line)")
                }
                let family = ["_bucket", "_sum", "_count"].reduce(metric) { name, suffix in
                    name.hasSuffix(suffix) && types[String(name.dropLast(suffix.count))] == "histogram" ? String(name.dropLast(suffix.count)) : name
                }
                guard types[family] != nil, helps.contains(family) else { throw Malformed(description: "sample before its HELP/TYPE: \(line)") }
                let key = labelSet.isEmpty ? metric : metric + "{" + labelSet.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
                guard result.samples.updateValue(value, forKey: key) == nil else { throw Malformed(description: "duplicate sample: \(line)") }
                result.labels.append(labelSet)
            } else {
                throw Malformed(description: "not a line of the format: \(line)")
            }
        }
        return result
    }

    /// Reads `name="value",…}` after the opening brace, unescaping `\\`, `\"` and `\n`.
    private static func parseLabels(_ rest: inout Substring) throws -> [String: String] {
        var labels: [String: String] = [:]
        while rest.first != "}" {
            guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "\"" else {
                throw Malformed(description: "bad label in \(rest)")
            }
            let name = String(rest[..<equals])
            guard name.wholeMatch(of: /[a-zA-Z_][a-zA-Z0-9_]*/) != nil else { throw Malformed(description: "bad label name \(name)") }
            rest = rest[rest.index(equals, offsetBy: 2)...]
            var value = ""
            while true {
                guard let character = rest.popFirst() else { throw Malformed(description: "unterminated label value") }
                if character == "\"" { break }
                if character == "\\" {
                    switch rest.popFirst() {
                    case "\\": value.append("\\")
                    case "\"": value.append("\"")
                    case "n": value.append("\n")
                    default: throw Malformed(description: "bad escape in label value")
                    }
                } else {
                    value.append(character)
                }
            }
            labels[name] = value
            if rest.first == "," { rest = rest.dropFirst() }
        }
        rest = rest.dropFirst()
        return labels
    }
}
