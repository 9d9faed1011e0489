import Foundation

/// A WireMock value matcher, for request patterns built in Swift (docs/stubs.md lists them all).
public enum MockStubMatcher: Sendable, Encodable, Equatable {
    /// The whole value equals the text (in any case with `caseInsensitive`).
    case equalTo(String, caseInsensitive: Bool = false)
    /// The value contains the text.
    case contains(String)
    /// The whole value matches the regular expression.
    case matches(String)
    /// The whole value does not match the regular expression.
    case doesNotMatch(String)
    /// The header, parameter, cookie or body is missing.
    case absent
    /// A JSON text the value must equal (numbers by value).
    case equalToJson(String, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false)
    /// A JSONPath that must select something.
    case matchesJsonPath(String)

    private enum Key: String, CodingKey {
        case equalTo, caseInsensitive, contains, matches, doesNotMatch, absent, equalToJson, ignoreArrayOrder, ignoreExtraElements, matchesJsonPath
    }

    /// WireMock's JSON: `{"equalTo": "…", "caseInsensitive": true}` and the like.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .equalTo(let text, let caseInsensitive):
            try c.encode(text, forKey: .equalTo)
            if caseInsensitive { try c.encode(true, forKey: .caseInsensitive) }
        case .contains(let text): try c.encode(text, forKey: .contains)
        case .matches(let regex): try c.encode(regex, forKey: .matches)
        case .doesNotMatch(let regex): try c.encode(regex, forKey: .doesNotMatch)
        case .absent: try c.encode(true, forKey: .absent)
        case .equalToJson(let json, let ignoreArrayOrder, let ignoreExtraElements):
            try c.encode(json, forKey: .equalToJson)
            if ignoreArrayOrder { try c.encode(true, forKey: .ignoreArrayOrder) }
            if ignoreExtraElements { try c.encode(true, forKey: .ignoreExtraElements) }
        case .matchesJsonPath(let path): try c.encode(path, forKey: .matchesJsonPath)
        }
    }
}

/// WireMock's request pattern: what a stub answers, or what `countRequests`/`findRequests` look for.
public struct MockRequestPattern: Sendable, Encodable, Equatable {
    /// The method exactly, or `ANY`; nil: every method.
    public var method: String?
    /// Path and query exactly as sent.
    public var url: String?
    /// The path exactly, any query.
    public var urlPath: String?
    /// A regular expression over path and query.
    public var urlPattern: String?
    /// A regular expression over the path.
    public var urlPathPattern: String?
    /// Header matchers by name (any case).
    public var headers: [String: MockStubMatcher]?
    /// Query parameter matchers by name (decoded values).
    public var queryParameters: [String: MockStubMatcher]?
    /// Cookie matchers by name.
    public var cookies: [String: MockStubMatcher]?
    /// Matchers the body must all satisfy.
    public var bodyPatterns: [MockStubMatcher]?

    /// A pattern; every part left nil matches anything.
    public init(method: String? = nil, url: String? = nil, urlPath: String? = nil, urlPattern: String? = nil, urlPathPattern: String? = nil,
                headers: [String: MockStubMatcher]? = nil, queryParameters: [String: MockStubMatcher]? = nil,
                cookies: [String: MockStubMatcher]? = nil, bodyPatterns: [MockStubMatcher]? = nil) {
        self.method = method
        self.url = url
        self.urlPath = urlPath
        self.urlPattern = urlPattern
        self.urlPathPattern = urlPathPattern
        self.headers = headers
        self.queryParameters = queryParameters
        self.cookies = cookies
        self.bodyPatterns = bodyPatterns
    }
}

/// What a stub answers: the common part of WireMock's `response` (a JSON file can use all of it).
public struct MockStubResponse: Sendable, Encodable, Equatable {
    /// The status code.
    public var status: Int
    /// Headers to send (no `Content-Type` is added for you).
    public var headers: [String: String]?
    /// The body text.
    public var body: String?
    /// Hold the answer this long (the server's event loop is not held).
    public var fixedDelayMilliseconds: Int?

    /// An answer; 200 with no body by default.
    public init(status: Int = 200, headers: [String: String]? = nil, body: String? = nil, fixedDelayMilliseconds: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.fixedDelayMilliseconds = fixedDelayMilliseconds
    }

    /// A JSON body from an `Encodable` value, with `Content-Type: application/json`.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> MockStubResponse {
        MockStubResponse(status: status, headers: ["Content-Type": "application/json"],
                         body: String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }
}

/// A stub mapping built in Swift (`MockAdminClient.addStub(_:)`).
public struct MockStubDefinition: Sendable, Encodable, Equatable {
    /// Shown in the journal, the log and the console.
    public var name: String?
    /// 1 is the highest, 5 the default; on equal priority the newest stub wins.
    public var priority: Int?
    /// What the request must look like.
    public var request: MockRequestPattern
    /// What is answered.
    public var response: MockStubResponse
    /// The scenario this stub belongs to (every scenario starts in `Started`).
    public var scenarioName: String?
    /// The stub answers only in this state of its scenario.
    public var requiredScenarioState: String?
    /// Once served, the scenario moves to this state.
    public var newScenarioState: String?

    /// A stub mapping.
    public init(name: String? = nil, priority: Int? = nil, request: MockRequestPattern, response: MockStubResponse,
                scenarioName: String? = nil, requiredScenarioState: String? = nil, newScenarioState: String? = nil) {
        self.name = name
        self.priority = priority
        self.request = request
        self.response = response
        self.scenarioName = scenarioName
        self.requiredScenarioState = requiredScenarioState
        self.newScenarioState = newScenarioState
    }
}

/// A loaded stub mapping as the server lists it.
public struct MockStub: Sendable, Decodable, Equatable {
    /// Its UUID (for ``MockAdminClient/removeStub(id:)``).
    public let id: String
    /// Its name, if it has one.
    public let name: String?
    /// Its priority, when the mapping gives one.
    public let priority: Int?
    /// Its scenario, if any.
    public let scenarioName: String?
}

/// A journaled request as `POST /__admin/requests/find` shows it.
public struct MockLoggedRequest: Sendable, Decodable, Equatable {
    /// Path and query as sent.
    public let url: String
    /// The method.
    public let method: String
    /// The body as text.
    public let body: String
    /// Header values by name (a repeated header's first value).
    public let headers: [String: String]

    private enum Key: String, CodingKey { case url, method, body, headers }

    /// Reads WireMock's logged request (a repeated header's values come as an array).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        url = try c.decode(String.self, forKey: .url)
        method = try c.decode(String.self, forKey: .method)
        body = try c.decodeIfPresent(String.self, forKey: .body) ?? ""
        var headers: [String: String] = [:]
        let raw = try c.decodeIfPresent([String: HeaderValue].self, forKey: .headers) ?? [:]
        for (name, value) in raw { headers[name] = value.first }
        self.headers = headers
    }

    private enum HeaderValue: Decodable {
        case one(String), many([String])
        var first: String? { if case .one(let s) = self { return s }; if case .many(let all) = self { return all.first }; return nil }
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) { self = .one(s) } else { self = .many(try c.decode([String].self)) }
        }
    }
}
