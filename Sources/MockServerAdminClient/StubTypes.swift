import Foundation

/// A WireMock value matcher, for request patterns built in Swift (docs/stubs.md lists them all).
public enum MockStubMatcher: Sendable, Encodable, Equatable {
    case equalTo(String, caseInsensitive: Bool = false)
    case contains(String)
    case matches(String)
    case doesNotMatch(String)
    case absent
    /// A JSON text the value must equal (numbers by value).
    case equalToJson(String, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false)
    /// A JSONPath that must select something.
    case matchesJsonPath(String)

    private enum Key: String, CodingKey {
        case equalTo, caseInsensitive, contains, matches, doesNotMatch, absent, equalToJson, ignoreArrayOrder, ignoreExtraElements, matchesJsonPath
    }

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
    public var method: String?
    public var url: String?
    public var urlPath: String?
    public var urlPattern: String?
    public var urlPathPattern: String?
    public var headers: [String: MockStubMatcher]?
    public var queryParameters: [String: MockStubMatcher]?
    public var cookies: [String: MockStubMatcher]?
    public var bodyPatterns: [MockStubMatcher]?

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
    public var status: Int
    public var headers: [String: String]?
    public var body: String?
    public var fixedDelayMilliseconds: Int?

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
    public var name: String?
    public var priority: Int?
    public var request: MockRequestPattern
    public var response: MockStubResponse
    public var scenarioName: String?
    public var requiredScenarioState: String?
    public var newScenarioState: String?

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
    public let id: String
    public let name: String?
    public let priority: Int?
    public let scenarioName: String?
}

/// A stub scenario and its state.
public struct MockStubScenario: Sendable, Decodable, Equatable {
    public let name: String
    public let state: String
    public let possibleStates: [String]
}

/// A journaled request as `POST /__admin/requests/find` shows it.
public struct MockLoggedRequest: Sendable, Decodable, Equatable {
    public let url: String
    public let method: String
    public let body: String
    /// Header values by name (a repeated header's first value).
    public let headers: [String: String]

    private enum Key: String, CodingKey { case url, method, body, headers }

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
