import HTTPServer
import EmulationKit

/// The RSSchool rules (document 001): the credentials and the secure sequence the app checks.
package struct RSSchoolSeed: Decodable, Sendable {
    package var login: String
    package var password: String
    /// The buttons to press, in order (`"132"`).
    package var secureSequence: String
}

/// The RSSchool login (document 001) as a tiny JSON API, so clients and UI tests share its rules.
///
/// The original has no server and no session: every check stands alone, so there is no state
/// to guard or reset.
package final class RSSchool: EmulatedSystem {
    let seed: RSSchoolSeed

    private static let success = HTTPResponse.json(.ok, ["state": "success"] as JSONValue)
    private static let secureSuccess = HTTPResponse.json(
        .ok, ["state": "success", "title": "Welcome", "message": "You are successfuly authorized!"] as JSONValue)
    private static let secureError = HTTPResponse.json(.unauthorized, ["state": "error"] as JSONValue)

    package init(seed: RSSchoolSeed, environment: MockEnvironment) {
        self.seed = seed
    }

    package var seedAccount: String? { "\(seed.login) / \(seed.password), then \(seed.secureSequence)" }

    package static let name = "rsschool"
    package static let title = "RSSchool"
    package static let seedKey = "rsschool"
    package let summary = "RSSchool login (document 001): the app's local credential and secure-sequence checks as a JSON API."
    package let endpoints = [
        Endpoint("POST", "/rsschool/authorize", "Check {\"login\", \"password\"}; 401 names the wrong fields."),
        Endpoint("POST", "/rsschool/secure", "Check the secure sequence {\"sequence\": \"132\"}."),
    ]
    /// Errors are `{"error": "…"}`.
    package let routeGroup = RouteGroup(system: RSSchool.name, prefixes: ["/rsschool"], errorShape: RSSchool.errorShape)

    static let errorShape: @Sendable (HTTPError) -> HTTPResponse = { .json($0.status, ["error": .string($0.message)] as JSONValue) }

    package func register(in router: inout Router) {
        router.post("/rsschool/authorize") { [self] request throws(HTTPError) in try authorize(request) }
        router.post("/rsschool/secure") { [self] request throws(HTTPError) in try secure(request) }
    }

    package func reset() {}
    /// No tokens: the app's checks stand alone.
    package func expireTokens(_ token: String?) -> Int { 0 }
    package func revokeTokens(_ token: String?) -> Int { 0 }

    private func authorize(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let object = try ApiaryBody(request, expected: "{\"login\": String, \"password\": String}").object
        let login = try RSSchool.string("login", in: object)
        let password = try RSSchool.string("password", in: object)
        // Only the wrong fields are named, login first, so the app marks just those.
        var wrong: [JSONValue] = []
        if login != seed.login { wrong.append("login") }
        if password != seed.password { wrong.append("password") }
        if wrong.isEmpty { return RSSchool.success }
        return .json(.unauthorized, ["wrong": .array(wrong)] as JSONValue)
    }

    private func secure(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let object = try ApiaryBody(request, expected: "{\"sequence\": \"132\"}").object
        let sequence = try RSSchool.string("sequence", in: object)
        // The app's pad has buttons 1, 2, 3 and takes exactly three presses: anything else
        // cannot come from it and is a client bug, not a wrong guess.
        guard sequence.utf8.count == 3, sequence.utf8.allSatisfy({ $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "3") }) else {
            throw HTTPError(.badRequest, "\"sequence\" must be exactly three digits, each 1, 2 or 3 (such as \"123\")")
        }
        return sequence == seed.secureSequence ? RSSchool.secureSuccess : RSSchool.secureError
    }

    private static func string(_ key: String, in object: JSONValue) throws(HTTPError) -> String {
        switch object[key] {
        case nil: throw HTTPError(.badRequest, "Missing field \"\(key)\"")
        case .string(let text)?: return text
        default: throw HTTPError(.badRequest, "Field \"\(key)\" must be a string")
        }
    }
}
