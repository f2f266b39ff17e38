extension Endpoint {
    /// The operators' console: a web page and its files, served without a token; the page
    /// signs in through `/auth/...` and works through `/admin/api/...`.
    static let console: [Endpoint] = [consolePage, consoleAsset]

    /// `GET /admin`: The operators' console (a web page).
    public static let consolePage = Endpoint(
        .get, "/admin", operationId: "consolePage", tag: "Admin", summary: "The operators' console (a web page)",
        details: """
            HTML for a browser, under `Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`. \
            Revalidated with its `ETag` (`Cache-Control: no-cache`): `If-None-Match` with the current tag is `304`.
            """,
        replies: [
            .init(status: 200, description: "The page.", body: .text(mediaType: "text/html")),
            .init(status: 304, description: "Not modified (`If-None-Match` named the current `ETag`)."),
        ])

    /// `GET /admin/assets/{name}`: A file of the console's page.
    public static let consoleAsset = Endpoint(
        .get, "/admin/assets/{name}", operationId: "consoleAsset", tag: "Admin", summary: "A file of the console's page",
        details: "Its style sheet, JavaScript modules and icon, under the page's policy, with an `ETag` as the page.",
        parameters: [
            .init("name", in: .path, required: true, description: "The file's name, as the page refers to it (`app.js`).", value: .string(maxLength: 64))
        ],
        replies: [
            .init(status: 200, description: "The file (`text/javascript`, `text/css` or `image/svg+xml`).", body: .text(mediaType: "text/javascript")),
            .init(status: 304, description: "Not modified (`If-None-Match` named the current `ETag`)."),
        ],
        errors: [404: "`not_found`: no file of the console has this name."])
}
