import AccountCore
import HTTPServer

/// The operators' console: `GET /admin`, the page, and `GET /admin/assets/{name}`, its
/// style sheet, scripts and icon (``ConsoleAssets``). The page calls `/auth/...` to log in and
/// `/admin/api/...` for everything else; nothing here needs a token.
struct ConsoleRoutes: RouteGroup {
    let assets = ConsoleAssets()

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.consolePage, in: sets.open, page)
        router.add(.consoleAsset, in: sets.open, asset)
    }

    /// `GET /admin`: the console's page.
    func page(_ context: RequestContext) async throws -> HTTPResponse {
        ConsoleAssets.response(for: assets.page, ifNoneMatch: context.request.headers["If-None-Match"])
    }

    /// `GET /admin/assets/{name}`: one of the page's files; `404 not_found` for any other name.
    func asset(_ context: RequestContext) async throws -> HTTPResponse {
        guard let name = context.parameters["name"], let file = assets.files[name] else { throw APIError.notFound }
        return ConsoleAssets.response(for: file, ifNoneMatch: context.request.headers["If-None-Match"])
    }
}
