#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The rows app's seed: its accounts and the shape of the generated list.
package struct RowsSeed: Decodable, Sendable {
    /// One account that may log in.
    package struct Account: Decodable, Sendable {
        package var email: String
        package var password: String
    }

    package var accounts: [Account]
    package var totalRows: Int
    package var pageSize: Int
    /// Seeds the lorem-ipsum generator, so every run serves the same texts.
    package var textSeed: UInt64
}

/// The "rows" app (document 004): JSON login and a paged, cacheable list of lorem-ipsum rows.
package final class RowsApp: EmulatedSystem {
    /// Passwords by e-mail: the seed's, and those `/__mock/accounts` added or removed.
    let accounts: AccountOverlay<String>
    private let pages: [[UInt8]]
    /// The original never expires tokens; signed ones need no table, however many logins a load test makes.
    let tokens: SignedTokens
    package let seedAccount: String?

    private static let emptyPage: [UInt8] = Array("[]".utf8)
    private static let expectedBody = "{\"email\": String, \"password\": String}"
    /// The login's keys: read without decoding them again.
    private static let words = JSONWords { text in
        switch text.count {
        case 5: return JSONWords.spells(text, "email") ? "email" : nil
        case 8: return JSONWords.spells(text, "password") ? "password" : nil
        default: return nil
        }
    }
    static let bearerHint = "The rows app expects the raw token in Authorization, without the Bearer prefix."

    package init(seed: RowsSeed, environment: MockEnvironment) {
        tokens = SignedTokens(random: environment.random)
        var accounts: [String: String] = [:]
        for account in seed.accounts { accounts[account.email] = account.password }
        self.accounts = AccountOverlay(accounts)
        seedAccount = seed.accounts.first.map { "\($0.email) / \($0.password)" }
        // Pages are immutable and served on the hot path: build every page's bytes once.
        pages = RowsApp.buildPages(totalRows: max(0, seed.totalRows), pageSize: max(1, seed.pageSize), seed: seed.textSeed)
    }

    package static let name = "rows"
    package static let title = "Rows app"
    package static let seedKey = "rows"
    package let summary = "The rows app (document 004): Vapor login and a paged, cached list of lorem-ipsum rows."
    package let endpoints = [
        Endpoint("POST", "/auth/login", "Log in with e-mail and password (JSON, form or multipart); returns a token."),
        Endpoint("GET", "/rows/:page", "Rows of a page (20 a page, from 1) with the raw token in Authorization."),
    ]
    package let routeGroup = RouteGroup(system: RowsApp.name, prefixes: ["/auth", "/rows"])

    package func register(in router: inout Router) {
        router.post("/auth/login") { [self] request throws(HTTPError) in try login(request) }
        router.get("/rows/:page") { [self] request, context throws(HTTPError) in try rows(request, context) }
    }

    package func reset() {
        accounts.reset()
        tokens.rotate()
    }

    /// The original never expires tokens: an expired one is answered as an unknown one (403), with a hint.
    package func expireTokens(_ token: String?) -> Int { tokens.expire(token) }
    package func revokeTokens(_ token: String?) -> Int { tokens.revoke(token) }

    // MARK: - Handlers

    private func login(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let content = try VaporContent(request, expected: RowsApp.expectedBody, words: RowsApp.words)
        let email = try content.string("email")
        let password = try content.string("password")
        guard let expected = accounts[email], expected == password else {
            throw HTTPError(.unauthorized, "Invalid Credentials")
        }
        let (high, low) = tokens.issueWords(account: email)
        return .json(.ok, bytes: RowsLoginBody.bytes(high: high, low: low))
    }

    private func rows(_ request: HTTPRequest, _ context: RequestContext) throws(HTTPError) -> HTTPResponse {
        // The original checks the token in middleware, before it looks at the page.
        guard let token = request.headers["authorization"], tokens.isValid(token) else {
            throw HTTPError(.forbidden, "Invalid token", hint: tokenHint(request.headers["authorization"]))
        }
        switch RowsApp.pageNumber(context.pathParameters["page"] ?? "") {
        case .invalid(let text):
            throw HTTPError(.badRequest, "Page must be a positive integer (1, 2, …), got \"\(text)\"")
        case .beyondAnyPage:
            return .json(.ok, bytes: RowsApp.emptyPage)
        case .page(let n):
            return .json(.ok, bytes: n <= pages.count ? pages[n - 1] : RowsApp.emptyPage)
        }
    }

    /// Why a refused Authorization value was refused, when the mistake is a known one.
    private func tokenHint(_ header: String?) -> String? {
        if let header, tokens.wasExpired(header) { return RowsApp.expiredHint }
        if let header, tokens.accountWasDeleted(header) { return RowsApp.deletedHint }
        return AuthorizationHints.rawExpected(header)
    }

    static let deletedHint = "The token's account was deleted (DELETE /__mock/accounts/rows/<e-mail>), which ends its sessions; create it again and log in."
    static let expiredHint = "The token has expired (POST /__mock/tokens/expire); log in again (POST /auth/login) for a new one."

    // MARK: - Parsing

    private enum PageNumber {
        case page(Int)
        /// Digits too many for an `Int`: a valid page number, but surely past the last page.
        case beyondAnyPage
        case invalid(String)
    }

    private static func pageNumber(_ text: String) -> PageNumber {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .invalid(text)
        }
        guard let n = Int(text) else { return .beyondAnyPage }
        return n > 0 ? .page(n) : .invalid(text)
    }

    // MARK: - Pages

    static func buildPages(totalRows: Int, pageSize: Int, seed: UInt64) -> [[UInt8]] {
        var pages: [[UInt8]] = []
        var first = 0
        while first < totalRows {
            let last = min(first + pageSize, totalRows)
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for id in first..<last {
                if id > first { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: "{\"id\":\(id),\"text\":".utf8)
                JSONText.appendQuoted(LoremIpsum.paragraph(seed: seed, index: UInt64(id)), to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
            pages.append(bytes)
            first = last
        }
        return pages
    }
}
