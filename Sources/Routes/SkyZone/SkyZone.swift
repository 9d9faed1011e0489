import Foundation
import HTTPServer

/// SkyZone's seed: the customers on file and the id the next sign-up gets.
public struct SkyZoneSeed: Decodable, Sendable {
    /// One customer: a profile plus how it signs in (`username`/`password`, or the social pair
    /// `external-token`/`external-type` inside the profile).
    public struct Customer: Decodable, Sendable {
        public var profile: SkyZoneProfile
        public var username: String?
        public var password: String?

        enum CodingKeys: String, CodingKey { case username, password }

        public init(from decoder: any Decoder) throws {
            profile = try SkyZoneProfile(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            username = try c.decodeIfPresent(String.self, forKey: .username)
            password = try c.decodeIfPresent(String.self, forKey: .password)
            // The profile's e-mail is the username, as the document's responses show.
            if let username, profile.email.isEmpty { profile.email = username }
        }
    }

    public var nextId: Int
    public var customers: [Customer]
}

/// SkyZone (document 002): account creation and sign-in by e-mail or social token, and the
/// signed-in profile.
public final class SkyZone: EmulatedSystem {
    struct Account: Sendable {
        var profile: SkyZoneProfile
        var password: String?
    }

    struct State: Sendable {
        var accounts: [Int: Account] = [:]
        /// Usernames are e-mail addresses, so they are matched case-insensitively (lowercased key).
        var idByUsername: [String: Int] = [:]
        /// `"<type>:<token>"`: one social token is one account per network.
        var idBySocial: [String: Int] = [:]
        var nextId: Int
        var tokens = TokenStore<Int>()
    }

    private let seedState: State
    let state: Locked<State>
    private let environment: MockEnvironment

    private static let notVerified = JSON.serialize(["auth": ["verified": false, "token": ""]] as [String: Any])

    public init(seed: SkyZoneSeed, environment: MockEnvironment) {
        self.environment = environment
        var initial = State(nextId: seed.nextId)
        for customer in seed.customers {
            let id = customer.profile.id
            initial.accounts[id] = Account(profile: customer.profile, password: customer.password)
            if let username = customer.username { initial.idByUsername[username.lowercased()] = id }
            if let token = customer.profile.externalToken, let type = customer.profile.externalType {
                initial.idBySocial[SkyZone.socialKey(type, token)] = id
            }
            // Never hand out an id the seed already uses.
            initial.nextId = max(initial.nextId, id + 1)
        }
        seedState = initial
        state = Locked(initial)
    }

    public func register(in router: inout Router) {
        router.post("/customer") { [self] request in createCustomer(request) }
        router.post("/tokens") { [self] request in signIn(request) }
        router.get("/customer") { [self] request in profile(request) }
    }

    public func reset() {
        state.withLock { $0 = seedState }
    }

    // MARK: - Handlers

    private func createCustomer(_ request: HTTPRequest) -> HTTPResponse {
        let credentials: SkyZoneCredentials
        switch SkyZone.credentials(request) {
        case .failure(let error): return SkyZone.error(.badRequest, error.message)
        case .success(let c): credentials = c
        }
        let result: Result<SkyZoneProfile, SkyZoneBadRequest> = state.withLock { state in
            switch credentials {
            case .password(let username, let password):
                let key = username.lowercased()
                guard state.idByUsername[key] == nil else { return .failure(SkyZoneBadRequest("Username is already taken")) }
                var profile = SkyZoneProfile(id: state.nextId)
                profile.email = username
                state.accounts[profile.id] = Account(profile: profile, password: password)
                state.idByUsername[key] = profile.id
                state.nextId += 1
                return .success(profile)
            case .social(let type, let token):
                let key = SkyZone.socialKey(type.rawValue, token)
                guard state.idBySocial[key] == nil else {
                    return .failure(SkyZoneBadRequest("This \(type.rawValue) account is already registered"))
                }
                var profile = SkyZoneProfile(id: state.nextId)
                profile.externalToken = token
                profile.externalType = type.rawValue
                state.accounts[profile.id] = Account(profile: profile, password: nil)
                state.idBySocial[key] = profile.id
                state.nextId += 1
                return .success(profile)
            }
        }
        switch result {
        case .failure(let conflict): return SkyZone.error(.conflict, conflict.message)
        case .success(let profile):
            environment.logger.info("SkyZone: customer \(profile.id) created")
            return .json(.ok, profile)
        }
    }

    private func signIn(_ request: HTTPRequest) -> HTTPResponse {
        let credentials: SkyZoneCredentials
        switch SkyZone.credentials(request) {
        case .failure(let error): return SkyZone.error(.badRequest, error.message)
        case .success(let c): credentials = c
        }
        let token = environment.random.token()
        let profile: SkyZoneProfile? = state.withLock { state in
            let id: Int?
            switch credentials {
            case .password(let username, let password):
                id = state.idByUsername[username.lowercased()].flatMap { state.accounts[$0]?.password == password ? $0 : nil }
            case .social(let type, let externalToken):
                id = state.idBySocial[SkyZone.socialKey(type.rawValue, externalToken)]
            }
            guard let id, let account = state.accounts[id] else { return nil }
            state.tokens.insert(token, id)
            return account.profile
        }
        guard let profile else { return .json(.unauthorized, bytes: SkyZone.notVerified) }
        return .json(.ok, SignInResponse(auth: .init(verified: true, token: token), profile: profile))
    }

    private func profile(_ request: HTTPRequest) -> HTTPResponse {
        guard let token = request.bearerToken else {
            return SkyZone.unauthorized("Missing \"Authorization: Bearer <token>\" header")
        }
        let profile: SkyZoneProfile? = state.withLock { state in
            state.tokens[token].flatMap { state.accounts[$0]?.profile }
        }
        guard let profile else { return SkyZone.unauthorized("Invalid or expired token") }
        return .json(.ok, profile)
    }

    // MARK: - Helpers

    private struct SignInResponse: Encodable {
        struct Auth: Encodable {
            var verified: Bool
            var token: String
        }

        var auth: Auth
        var profile: SkyZoneProfile
    }

    /// JSON bodies as the document shows; a url-encoded form too, since that is what
    /// Alamofire sends for a POST unless told to encode JSON.
    private static func credentials(_ request: HTTPRequest) -> Result<SkyZoneCredentials, SkyZoneBadRequest> {
        guard !request.body.isEmpty else {
            return .failure(SkyZoneBadRequest("Request body is empty: expected JSON {\"username\", \"password\"} or {\"external-token\", \"external-type\"}"))
        }
        if request.mediaType == "application/x-www-form-urlencoded" {
            var fields: [String: Any] = [:]
            for (name, value) in request.bodyParameters where fields[name] == nil { fields[name] = value }
            return SkyZoneCredentials.parse(fields)
        }
        guard let parsed = JSON.parse(request.body) else { return .failure(SkyZoneBadRequest("Request body is not valid JSON")) }
        guard let object = parsed as? [String: Any] else { return .failure(SkyZoneBadRequest("Request body must be a JSON object")) }
        return SkyZoneCredentials.parse(object)
    }

    private static func socialKey(_ type: String, _ token: String) -> String { "\(type):\(token)" }

    private static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        .json(status, object: ["error": message])
    }

    private static func unauthorized(_ message: String) -> HTTPResponse {
        var response = error(.unauthorized, message)
        response.headers.set("WWW-Authenticate", "Bearer")
        return response
    }
}
