import Foundation
import HTTPServer

/// The rows app's seed: its accounts and the shape of the generated list.
public struct RowsSeed: Decodable, Sendable {
    /// One account that may log in.
    public struct Account: Decodable, Sendable {
        public var email: String
        public var password: String
    }

    public var accounts: [Account]
    public var totalRows: Int
    public var pageSize: Int
    /// Seeds the lorem-ipsum generator, so every run serves the same texts.
    public var textSeed: UInt64
}

/// The "rows" app (document 004): JSON login and a paged, cacheable list of lorem-ipsum rows.
public final class RowsApp: EmulatedSystem {
    let accounts: [String: String]
    private let pages: [[UInt8]]
    /// The original never expires tokens; signed ones need no table, however many logins a load test makes.
    private let tokens: SignedTokens

    private static let emptyPage: [UInt8] = Array("[]".utf8)
    // Built once: these two answer every refused request of a load test.
    private static let invalidToken = HTTPResponse.jsonError(.forbidden, "Invalid token")
    private static let invalidCredentials = HTTPResponse.jsonError(.unauthorized, "Invalid Credentials")

    public init(seed: RowsSeed, environment: MockEnvironment) {
        tokens = SignedTokens(random: environment.random)
        var accounts: [String: String] = [:]
        for account in seed.accounts { accounts[account.email] = account.password }
        self.accounts = accounts
        // Pages are immutable and served on the hot path: build every page's bytes once.
        pages = RowsApp.buildPages(totalRows: max(0, seed.totalRows), pageSize: max(1, seed.pageSize), seed: seed.textSeed)
    }

    public func register(in router: inout Router) {
        router.post("/auth/login") { [self] request in login(request) }
        router.get("/rows/:page") { [self] request in rows(request) }
    }

    public func reset() {
        tokens.rotate()
    }

    /// The number of pages that hold rows.
    public var pageCount: Int { pages.count }

    // MARK: - Handlers

    private func login(_ request: HTTPRequest) -> HTTPResponse {
        guard !request.body.isEmpty else {
            return HTTPResponse.jsonError(.badRequest, "Request body is empty: expected JSON {\"email\": String, \"password\": String}")
        }
        guard let object = JSONValue.parse(request.body) else {
            return HTTPResponse.jsonError(.badRequest, "Request body is not valid JSON")
        }
        guard object.isObject else {
            return HTTPResponse.jsonError(.badRequest, "Request body must be a JSON object {\"email\": String, \"password\": String}")
        }
        let email: String, password: String
        switch (RowsApp.stringField("email", in: object), RowsApp.stringField("password", in: object)) {
        case (.failure(let reason), _), (_, .failure(let reason)):
            return HTTPResponse.jsonError(.badRequest, reason.message)
        case (.success(let e), .success(let p)):
            email = e
            password = p
        }
        guard let expected = accounts[email], expected == password else {
            return RowsApp.invalidCredentials
        }
        let token = tokens.issue()
        return .json(.ok, bytes: Array("{\"token\":\"\(token)\"}".utf8))
    }

    private func rows(_ request: HTTPRequest) -> HTTPResponse {
        // The original checks the token in middleware, before it looks at the page.
        guard let token = request.headers["authorization"], tokens.isValid(token) else {
            return RowsApp.invalidToken
        }
        switch RowsApp.pageNumber(request.pathParameters["page"] ?? "") {
        case .invalid(let text):
            return HTTPResponse.jsonError(.badRequest, "Page must be a positive integer (1, 2, …), got \"\(text)\"")
        case .beyondAnyPage:
            return .json(.ok, bytes: RowsApp.emptyPage)
        case .page(let n):
            return .json(.ok, bytes: n <= pages.count ? pages[n - 1] : RowsApp.emptyPage)
        }
    }

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

    private struct FieldError: Error {
        let message: String
    }

    private static func stringField(_ key: String, in object: JSONValue) -> Result<String, FieldError> {
        switch object[key] {
        case nil, .null?:
            return .failure(FieldError(message: "Value required for key '\(key)'"))
        case .string(let string)?:
            return .success(string)
        default:
            return .failure(FieldError(message: "Value of type 'String' required for key '\(key)'"))
        }
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
