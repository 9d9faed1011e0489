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
    private var madePath: TemplateValue?
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

    /// The path percent-decoded (`request.path` rendered whole).
    var decodedPath: String { FormDecoding.percentDecode(request.path, plusIsSpace: false) }

    /// `request.path` and `request.pathSegments` as a template reads them: the segments, rendered
    /// whole as the decoded path. Made once: a template naming the path three times built it three times.
    var pathValue: TemplateValue {
        mutating get {
            if let madePath { return madePath }
            // As WireMock: the path decoded, then cut at `/` (an encoded `/` cuts too), empty
            // segments skipped. Cut on the byte, not through `Character`s (grapheme breaking cost
            // thousands of instructions for a short path); `/` is ASCII, so every cut is a scalar boundary.
            let path = decodedPath, utf8 = path.utf8
            var segments: [TemplateValue] = []
            var start = utf8.startIndex
            for i in utf8.indices where utf8[i] == UInt8(ascii: "/") {
                if start < i { segments.append(.string(String(path[start..<i]))) }
                start = utf8.index(after: i)
            }
            if start < utf8.endIndex { segments.append(.string(String(path[start...]))) }
            let value = TemplateValue.list(segments, .urlPath(path))
            madePath = value
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
