import AccountCore
import Foundation
import HTTPServer
import Sodium

/// The operators' console (`/admin`): its page, style sheet, scripts and icon, written as plain
/// files beside this one and compiled into the binary (SwiftPM's `embedInCode`), so the release
/// binary serves them from any working directory with nothing to install next to it.
///
/// Every file is served with a strict Content-Security-Policy (only this origin's scripts,
/// styles, images and API; no inline code, no frames, no forms posted anywhere) and a strong
/// `ETag`, revalidated on every use (`Cache-Control: no-cache`).
struct ConsoleAssets: Sendable {
    /// One served file.
    struct Asset: Sendable {
        let contentType: String
        let body: [UInt8]
        /// `"<first 32 hex digits of the SHA-256 of body>"`, quotes included.
        let etag: String

        init(_ contentType: String, _ body: [UInt8]) {
            self.contentType = contentType
            self.body = body
            etag = "\"" + Hex.encode(Array(Digest.sha256(body).prefix(16))) + "\""
        }
    }

    /// The policy of the page and every asset.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// The page (`/admin`).
    let page: Asset
    /// The files under `/admin/assets/`, by name.
    let files: [String: Asset]

    init() {
        let script = "text/javascript; charset=utf-8"
        page = Asset("text/html; charset=utf-8", PackageResources.console_html)
        files = [
            "console.css": Asset("text/css; charset=utf-8", PackageResources.console_css),
            "icon.svg": Asset("image/svg+xml", PackageResources.icon_svg),
            "app.js": Asset(script, PackageResources.app_js),
            "api.js": Asset(script, PackageResources.api_js),
            "dom.js": Asset(script, PackageResources.dom_js),
            "i18n.js": Asset(script, PackageResources.i18n_js),
            "charts.js": Asset(script, PackageResources.charts_js),
            "login.js": Asset(script, PackageResources.login_js),
            "webauthn.js": Asset(script, PackageResources.webauthn_js),
            "dashboard.js": Asset(script, PackageResources.dashboard_js),
            "accounts.js": Asset(script, PackageResources.accounts_js),
            "account.js": Asset(script, PackageResources.account_js),
            "audit.js": Asset(script, PackageResources.audit_js),
        ]
    }

    /// The reply for `asset`: `304` without a body when `If-None-Match` names its tag, else the file.
    static func response(for asset: Asset, ifNoneMatch: String?) -> HTTPResponse {
        let fresh = ifNoneMatch.map { matches(asset.etag, $0) } ?? false
        var headers: HTTPHeaders = [
            "Content-Type": asset.contentType, "ETag": asset.etag, "Cache-Control": "no-cache",
            "Content-Security-Policy": contentSecurityPolicy, "Cross-Origin-Opener-Policy": "same-origin",
            "Cross-Origin-Resource-Policy": "same-origin",
        ]
        if fresh { headers.remove("Content-Type") }
        return HTTPResponse(status: fresh ? 304 : 200, headers: headers, body: fresh ? [] : asset.body)
    }

    /// Whether an `If-None-Match` value (`*`, or a list of tags, weak or strong) names `etag`
    /// (RFC 9110 §13.1.2 compares weakly).
    static func matches(_ etag: String, _ header: String) -> Bool {
        header.split(separator: ",").contains { part in
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
