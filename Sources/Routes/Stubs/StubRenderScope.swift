#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// What one answer's templates read from the request, each part worked out once: a template
/// of thousands of `{{jsonPath request.body …}}` parses the body once, not once per use.
struct StubRenderScope {
    let request: StubRequest
    /// The mock's clock when the answer is made.
    let now: Date
    /// Shared by every `jsonPath` of the answer (headers and body).
    var budget = StubBudget()
    /// The mapping's `transformerParameters` (`{{parameters.x}}`).
    var parameters: TemplateValue = .map([], json: false)
    private var parsedBody: JSONValue??
    private var parsedQuery: Parameters?
    private var parsedSegments: [String]?
    private var parsedCookies: [(String, String)]?

    init(_ request: StubRequest, now: Date) {
        self.request = request
        self.now = now
    }

    /// The body as JSON, nil when it is not JSON.
    var document: JSONValue? {
        mutating get {
            if let parsedBody { return parsedBody }
            let value = JSONValue.parse(request.body)
            parsedBody = .some(value)
            return value
        }
    }

    var query: Parameters {
        mutating get {
            if let parsedQuery { return parsedQuery }
            let value = request.queryParameters
            parsedQuery = value
            return value
        }
    }

    /// The path's segments, percent-decoded.
    var pathSegments: [String] {
        mutating get {
            if let parsedSegments { return parsedSegments }
            let value = request.path.split(separator: "/").map { FormDecoding.percentDecode($0, plusIsSpace: false) }
            parsedSegments = value
            return value
        }
    }

    var cookies: [(String, String)] {
        mutating get {
            if let parsedCookies { return parsedCookies }
            let value = request.cookies
            parsedCookies = value
            return value
        }
    }
}
