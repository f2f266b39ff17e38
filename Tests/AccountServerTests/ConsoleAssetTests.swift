import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// The console's files as the server serves them (the browser tests, `browser/console_test.py`,
/// run the page itself): every file of `Sources/AccountServer/Console/` compiled in and served
/// byte for byte under its policy, revalidation by `ETag`, and nothing else under `/admin/assets/`.
@Suite("GET /admin and its assets")
struct ConsoleAssetTests {
    static let folder = PackageFiles.url("Sources/AccountServer/Console")

    @Test("every file of the console's folder is served as written, with its type, policy and tag")
    func everyFileServed() async throws {
        let harness = try await Harness.make()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasSuffix(".swift") }.sorted()
        #expect(names.contains("console.html") && names.count >= 10, "\(names)")
        let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"]
        for name in names {
            let path = name == "console.html" ? "/admin" : "/admin/assets/\(name)"
            let reply = try await harness.send("GET", path)
            let written = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            #expect(reply.status == 200 && Array(reply.body) == written, "\(path) is not \(name) as written")
            #expect(reply.header("Content-Type") == types[(name as NSString).pathExtension], "\(path): \(reply.header("Content-Type") ?? "")")
            #expect(reply.header("Content-Security-Policy") == ConsoleAssets.contentSecurityPolicy)
            #expect(reply.header("X-Content-Type-Options") == "nosniff" && reply.header("Referrer-Policy") == "no-referrer")
            #expect(reply.header("Cache-Control") == "no-cache")
            let etag = try #require(reply.header("ETag"))
            #expect(etag.wholeMatch(of: /"[0-9a-f]{32}"/) != nil, "\(etag)")
        }
        // The policy lets nothing in from elsewhere and nothing run inline.
        let policy = ConsoleAssets.contentSecurityPolicy
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
                          "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"] {
            #expect(policy.contains(directive), "\(directive)")
        }
        #expect(!policy.contains("unsafe") && !policy.contains("http"))
    }

    @Test("If-None-Match with the tag (weak, in a list, or *) is 304 without a body; another tag gets the file")
    func revalidation() async throws {
        let harness = try await Harness.make()
        let first = try await harness.send("GET", "/admin/assets/app.js")
        let etag = try #require(first.header("ETag"))
        for header in [etag, "W/\(etag)", "\"0000\", \(etag)", "*"] {
            let again = try await harness.send("GET", "/admin/assets/app.js", headers: ["If-None-Match": header])
            #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag, "\(header): \(again.status)")
        }
        let other = try await harness.send("GET", "/admin/assets/app.js", headers: ["If-None-Match": "\"0000\""])
        #expect(other.status == 200 && other.body == first.body)
        // Each file has its own tag.
        let page = try await harness.send("GET", "/admin/", headers: ["If-None-Match": etag])
        #expect(page.status == 200 && page.header("ETag") != etag)
    }

    @Test("unknown names, other methods and the API's own policy")
    func refusals() async throws {
        let harness = try await Harness.make()
        for name in ["nothing.js", "ConsoleAssets.swift", "console.html", "APP.JS"] {
            let reply = try await harness.send("GET", "/admin/assets/\(name)")
            #expect(reply.status == 404 && reply.code == "not_found", "\(name): \(reply.status)")
        }
        let post = try await harness.send("POST", "/admin")
        #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
        // Everything else keeps the API's policy.
        let api = try await harness.send("GET", "/auth/policy")
        #expect(api.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")
    }
}
