import HTTPServer

/// The RSSchool rules (document 001): the credentials and the secure sequence the app checks.
public struct RSSchoolSeed: Decodable, Sendable {
    public var login: String
    public var password: String
    /// The buttons to press, in order (`"132"`).
    public var secureSequence: String
}

/// The RSSchool login (document 001) as a tiny JSON API, so clients and UI tests share its rules.
///
/// The original has no server and no session: every check stands alone, so there is no state
/// to guard or reset.
public final class RSSchool: EmulatedSystem {
    let seed: RSSchoolSeed

    private static let success = JSON.serialize(["state": "success"])
    private static let secureSuccess = JSON.serialize(
        ["state": "success", "title": "Welcome", "message": "You are successfuly authorized!"])
    private static let secureError = JSON.serialize(["state": "error"])

    public init(seed: RSSchoolSeed, environment: MockEnvironment) {
        self.seed = seed
    }

    public func register(in router: inout Router) {
        router.post("/rsschool/authorize") { [self] request in authorize(request) }
        router.post("/rsschool/secure") { [self] request in secure(request) }
    }

    public func reset() {}

    private func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let object: [String: Any]
        switch RSSchool.jsonObject(request, expected: "{\"login\": String, \"password\": String}") {
        case .failure(let error): return error.response
        case .success(let o): object = o
        }
        guard let login = object["login"] as? String else { return RSSchool.fieldError("login", in: object) }
        guard let password = object["password"] as? String else { return RSSchool.fieldError("password", in: object) }
        // Only the wrong fields are named, login first, so the app marks just those.
        var wrong: [String] = []
        if login != seed.login { wrong.append("login") }
        if password != seed.password { wrong.append("password") }
        if wrong.isEmpty { return .json(.ok, bytes: RSSchool.success) }
        return .json(.unauthorized, object: ["wrong": wrong])
    }

    private func secure(_ request: HTTPRequest) -> HTTPResponse {
        let object: [String: Any]
        switch RSSchool.jsonObject(request, expected: "{\"sequence\": \"132\"}") {
        case .failure(let error): return error.response
        case .success(let o): object = o
        }
        guard let sequence = object["sequence"] as? String else { return RSSchool.fieldError("sequence", in: object) }
        // The app's pad has buttons 1, 2, 3 and takes exactly three presses: anything else
        // cannot come from it and is a client bug, not a wrong guess.
        guard sequence.utf8.count == 3, sequence.utf8.allSatisfy({ $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "3") }) else {
            return RSSchool.badRequest("\"sequence\" must be exactly three digits, each 1, 2 or 3 (such as \"123\")")
        }
        return sequence == seed.secureSequence ? .json(.ok, bytes: RSSchool.secureSuccess) : .json(.unauthorized, bytes: RSSchool.secureError)
    }

    // MARK: - Input

    private struct BadRequest: Error {
        let response: HTTPResponse
    }

    private static func jsonObject(_ request: HTTPRequest, expected: String) -> Result<[String: Any], BadRequest> {
        guard !request.body.isEmpty else { return .failure(BadRequest(response: badRequest("Request body is empty: expected JSON \(expected)"))) }
        guard let parsed = JSON.parse(request.body) else { return .failure(BadRequest(response: badRequest("Request body is not valid JSON"))) }
        guard let object = parsed as? [String: Any] else {
            return .failure(BadRequest(response: badRequest("Request body must be a JSON object \(expected)")))
        }
        return .success(object)
    }

    private static func fieldError(_ key: String, in object: [String: Any]) -> HTTPResponse {
        object[key] == nil ? badRequest("Missing field \"\(key)\"") : badRequest("Field \"\(key)\" must be a string")
    }

    private static func badRequest(_ message: String) -> HTTPResponse {
        .json(.badRequest, object: ["error": message])
    }
}
