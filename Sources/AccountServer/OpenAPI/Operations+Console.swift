extension Operation {
    /// The operators' console: a web page and its files, served without a token; the page
    /// signs in through `/auth/...` and works through `/admin/api/...`.
    static let console: [Operation] = [
        Operation(
            method: "get", path: "/admin", id: "consolePage", tag: "Admin", summary: "The operators' console (a web page)",
            description: """
                HTML for a browser, under `Content-Security-Policy: \(ConsoleAssets.contentSecurityPolicy)`. \
                Revalidated with its `ETag` (`Cache-Control: no-cache`): `If-None-Match` with the current tag is `304`.
                """,
            successes: [
                .init(status: 200, description: "The page.", schema: Schema.string(), mediaType: "text/html"),
                .init(status: 304, description: "Not modified (`If-None-Match` named the current `ETag`)."),
            ]),
        Operation(
            method: "get", path: "/admin/assets/{name}", id: "consoleAsset", tag: "Admin", summary: "A file of the console's page",
            description: "Its style sheet, JavaScript modules and icon, under the page's policy, with an `ETag` as the page.",
            parameters: [
                [
                    "name": "name", "in": "path", "required": true, "description": "The file's name, as the page refers to it (`app.js`).",
                    "schema": Schema.string(maxLength: 64),
                ]
            ],
            successes: [
                .init(status: 200, description: "The file (`text/javascript`, `text/css` or `image/svg+xml`).", schema: Schema.string(), mediaType: "text/javascript"),
                .init(status: 304, description: "Not modified (`If-None-Match` named the current `ETag`)."),
            ],
            errors: [404: "`not_found`: no file of the console has this name."]),
    ]
}
