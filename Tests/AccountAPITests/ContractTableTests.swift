import AccountAPI
import Testing

/// The contract table holds together: each endpoint once, its path parameters declared, its
/// auth where its path says, and each code of the catalog once with texts in every language.
@Suite("The contract table")
struct ContractTableTests {
    @Test("each endpoint is listed once, by its method and path and by its operationId")
    func endpointsAreUnique() {
        #expect(Endpoint.all.count >= 50)
        #expect(Set(Endpoint.all.map(\.route)).count == Endpoint.all.count)
        #expect(Set(Endpoint.all.map(\.operationId)).count == Endpoint.all.count)
        #expect(Endpoint.named(.post, "/auth/login") == .logIn)
        #expect(Endpoint.named(.delete, "/auth/login") == nil)
    }

    @Test("each `{name}` of a path is a declared path parameter, and each path parameter is in the path")
    func pathParameters() {
        for endpoint in Endpoint.all {
            let inPath = Set(endpoint.path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) })
            let declared = Set(endpoint.parameters.filter { $0.location == .path }.map(\.name))
            #expect(inPath == declared, "\(endpoint.route)")
            let optional = endpoint.parameters.filter { $0.location == .path && !$0.required }
            #expect(optional.isEmpty, "\(endpoint.route)")
        }
        #expect(Endpoint.revokeSession.path(id: "abc") == "/auth/sessions/abc")
        #expect(Endpoint.consoleAsset.path(["name": "app.js"]) == "/admin/assets/app.js")
    }

    @Test("the operators' API takes an operator, the console's page none, and every account route a token")
    func auth() {
        for endpoint in Endpoint.all {
            #expect((endpoint.auth == .operator) == endpoint.path.hasPrefix("/admin/api/"), "\(endpoint.route)")
            if endpoint.auth == .operator {
                #expect(endpoint.errorReplies[403]?.contains("`admin_required`") == true, "\(endpoint.route)")
                #expect(endpoint.errorReplies[403]?.contains("`second_factor_required`") == true, "\(endpoint.route)")
            }
            if endpoint.auth != .none { #expect(endpoint.errorReplies[401] != nil, "\(endpoint.route)") }
        }
        #expect(Endpoint.getMe.auth == .bearer && Endpoint.logIn.auth == .none && Endpoint.consolePage.auth == .none)
    }

    @Test("an endpoint with a body answers the body's refusals; every endpoint the HTTP layer's")
    func errorReplies() {
        for endpoint in Endpoint.all {
            let replies = endpoint.errorReplies
            for status in [400, 408, 414, 431, 500] { #expect(replies[status] != nil, "\(endpoint.route) \(status)") }
            if endpoint.request != nil {
                for status in [411, 413, 415, 422] { #expect(replies[status] != nil, "\(endpoint.route) \(status)") }
                #expect(endpoint.request?.hasSuffix("Request") == true, "\(endpoint.route): \(endpoint.request ?? "")")
            }
            #expect((replies[429] != nil) || !endpoint.path.hasPrefix("/auth/"), "\(endpoint.route)")
            for status in replies.keys { #expect(ErrorCatalog.reply(status) != nil, "\(endpoint.route): \(status) has no shared reply") }
        }
        #expect(Endpoint.logIn.errorCodes[.invalidCredentials] == [401])
        #expect(Endpoint.changePassword.errorCodes[.invalidCredentials] == [403])
    }

    @Test("each code is in the catalog once, with its statuses and texts in both languages")
    func catalog() throws {
        let codes = ErrorCatalog.entries.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(Set(ErrorCatalog.fieldEntries.map(\.code)).count == ErrorCatalog.fieldEntries.count)
        for entry in ErrorCatalog.entries {
            #expect(entry.statuses.first == entry.status && Set(entry.statuses).count == entry.statuses.count, "\(entry.code)")
            #expect(entry.statuses.allSatisfy { (400..<600).contains($0) }, "\(entry.code)")
            #expect(hasHangul(entry.title.ko) && hasHangul(entry.detail.ko), "\(entry.code)")
            #expect(!hasHangul(entry.title.en) && !hasHangul(entry.detail.en), "\(entry.code)")
            #expect(Messages.title(entry.code, .ko) == entry.title.ko)
            #expect(Messages.detail(entry.code, .en) == entry.detail.en)
        }
        #expect(ErrorCatalog.serverCodes.contains(.rateLimited))
        #expect(!ErrorCatalog.serverCodes.contains(.emailTaken), "the SDK's own code")
        #expect(ErrorCatalog.entry(ErrorCode("brand_new")) == nil)
        #expect(Messages.detail(ErrorCode("brand_new"), .en) == ErrorCatalog.unknownDetail.en)
        let statuses = ErrorCatalog.replies.map(\.status)
        #expect(Set(statuses).count == statuses.count)
        for entry in ErrorCatalog.entries where entry.sender == .server {
            for status in entry.statuses { #expect(ErrorCatalog.reply(status) != nil, "\(entry.code): \(status) has no shared reply") }
        }
    }
}
