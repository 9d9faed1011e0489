#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// SkyZone's seed: the customers on file and the id the next sign-up gets.
package struct SkyZoneSeed: Decodable, Sendable {
    /// One customer: a profile plus how it signs in (`username`/`password`, or the social pair
    /// `external-token`/`external-type` inside the profile).
    package struct Customer: Decodable, Sendable {
        package var profile: SkyZoneProfile
        package var username: String?
        package var password: String?

        enum CodingKeys: String, CodingKey { case username, password }

        package init(from decoder: any Decoder) throws {
            profile = try SkyZoneProfile(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            username = try c.decodeIfPresent(String.self, forKey: .username)
            password = try c.decodeIfPresent(String.self, forKey: .password)
            // The profile's e-mail is the username, as the document's responses show.
            if let username, profile.email.isEmpty { profile.email = username }
        }
    }

    package var nextId: Int
    package var customers: [Customer]
}

/// SkyZone (document 002): account creation and sign-in by e-mail or social token, and the
/// signed-in profile.
package final class SkyZone: EmulatedSystem {
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
        /// Accounts changed since the change log last looked.
        var touchedAccounts = TouchedKeys()
        /// Tokens voided by `/__mock/tokens/expire`, only to say so in the refusal's hint; never
        /// more than the tokens once live (the admin API is the only writer).
        var expired: Set<String> = []

        /// Stores `profile` as a new account under the next id, signing in with `credentials`
        /// (its e-mail and password, or its social token), and indexes it by them: the one way
        /// the API and `/__mock/accounts` both create an account.
        mutating func add(_ profile: SkyZoneProfile, signingInWith credentials: SkyZoneCredentials) -> SkyZoneProfile {
            var profile = profile
            profile.id = nextId
            switch credentials {
            case .password(let username, let password):
                profile.email = username
                accounts[profile.id] = Account(profile: profile, password: password)
                idByUsername[username.lowercased()] = profile.id
            case .social(let type, let token):
                profile.externalToken = token
                profile.externalType = type.rawValue
                accounts[profile.id] = Account(profile: profile, password: nil)
                idBySocial[SkyZone.socialKey(type.rawValue, token)] = profile.id
            }
            touchedAccounts.touch("\(profile.id)")
            nextId += 1
            return profile
        }
    }

    private let seedState: State
    /// Changes go through `withLock` (which the state file follows), reads through `read`.
    let state: StateCell<State>
    private let environment: MockEnvironment
    let accountCap: StateCap
    package let seedAccount: String?

    private static let notVerified = HTTPResponse.json(.unauthorized, ["auth": ["verified": false, "token": ""]] as JSONValue)
    private static let expectedBody = "{\"username\", \"password\"} or {\"external-token\", \"external-type\"}"

    package init(seed: SkyZoneSeed, environment: MockEnvironment) {
        self.environment = environment
        accountCap = StateCap(SkyZone.accountsSetting, environment: environment)
        var initial = State(nextId: seed.nextId)
        for customer in seed.customers {
            let id = customer.profile.id
            initial.accounts[id] = Account(profile: customer.profile, password: customer.password)
            if let username = customer.username { initial.idByUsername[username.lowercased()] = id }
            if !customer.profile.externalToken.isEmpty, !customer.profile.externalType.isEmpty {
                initial.idBySocial[SkyZone.socialKey(customer.profile.externalType, customer.profile.externalToken)] = id
            }
            // Never hand out an id the seed already uses.
            initial.nextId = max(initial.nextId, id + 1)
        }
        seedState = initial
        seedAccount = seed.customers.first { $0.username != nil && $0.password != nil }
            .map { "\($0.username ?? "") / \($0.password ?? "")" }
        state = StateCell(initial)
    }

    package static let name = "skyzone"
    package static let title = "SkyZone"
    package static let seedKey = "skyzone"
    package let summary = "SkyZone (document 002): create an account and sign in by e-mail or social token; the signed-in profile."
    package let endpoints = [
        Endpoint("POST", "/customer", "Create an account: {\"username\", \"password\"} or {\"external-token\", \"external-type\"}; the profile."),
        Endpoint("POST", "/tokens", "Sign in with either form; {\"auth\": {\"verified\", \"token\"}, \"profile\"}."),
        Endpoint("GET", "/customer", "The signed-in profile, with Authorization: Bearer <token>."),
    ]
    /// Errors are `{"error": "…"}`; a 401 names the Bearer scheme.
    package let routeGroup = RouteGroup(system: SkyZone.name, prefixes: ["/customer", "/tokens"], errorShape: SkyZone.errorShape)

    static let errorShape: @Sendable (HTTPError) -> HTTPResponse = { error in
        var response = HTTPResponse.json(error.status, ["error": .string(error.message)] as JSONValue)
        // RFC 9110 §11.6.1: a 401 names the scheme it wants.
        if error.status == .unauthorized { response.headers.set("WWW-Authenticate", "Bearer") }
        return response
    }

    package func register(in router: inout Router) {
        router.post("/customer") { [self] request throws(HTTPError) in try createCustomer(request) }
        router.post("/tokens") { [self] request throws(HTTPError) in try signIn(request) }
        router.get("/customer") { [self] request throws(HTTPError) in try profile(request) }
    }

    package func reset() {
        state.replace(seedState)
    }

    /// SkyZone tokens never expire on their own: an expired one is answered as an unknown one, with a hint.
    package func expireTokens(_ token: String?) -> Int { endTokens(token, expired: true) }

    package func revokeTokens(_ token: String?) -> Int { endTokens(token, expired: false) }

    private func endTokens(_ token: String?, expired: Bool) -> Int {
        state.withLock { state in
            guard let token else {
                let count = state.tokens.count
                if expired { state.expired.formUnion(state.tokens.values.keys) }
                state.tokens = TokenStore<Int>()
                return count
            }
            guard state.tokens[token] != nil else { return 0 }
            state.tokens.remove(token)
            if expired { state.expired.insert(token) }
            return 1
        }
    }

    // MARK: - Handlers

    /// The original (an Apiary mock) answered every create with 200: creating an account that
    /// exists, with the same password or social pair, returns it, so the document's own example
    /// works on a fresh seed; the username with another password is a conflict.
    private func createCustomer(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let credentials = try SkyZoneCredentials.parse(ApiaryBody(request, expected: SkyZone.expectedBody).object)
        let (profile, created) = try state.withLock { (state) throws(HTTPError) -> (SkyZoneProfile, Bool) in
            switch credentials {
            case .password(let username, let password):
                let key = username.lowercased()
                if let id = state.idByUsername[key], let account = state.accounts[id] {
                    guard account.password == password else { throw HTTPError(.conflict, "Username is already taken") }
                    return (account.profile, false)
                }
            case .social(let type, let token):
                let key = SkyZone.socialKey(type.rawValue, token)
                if let id = state.idBySocial[key], let account = state.accounts[id] { return (account.profile, false) }
            }
            try checkCapacity(state)
            return (state.add(SkyZoneProfile(id: state.nextId), signingInWith: credentials), true)
        }
        if created { environment.logger.info("SkyZone: customer \(profile.id) created") }
        return .json(.ok, profile)
    }

    /// Refuses a new account past the cap, so an unauthenticated flood cannot grow memory.
    private func checkCapacity(_ state: State) throws(HTTPError) {
        guard state.accounts.count >= accountCap.limit else { return }
        accountCap.bit("SkyZone: account cap reached; refused a new account")
        throw HTTPError(.serviceUnavailable, "Too many accounts",
                        hint: "The mock holds its maximum of \(accountCap.limit) SkyZone accounts; reset it (POST /__mock/reset) or raise --max-skyzone-accounts.")
    }

    private func signIn(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let credentials = try SkyZoneCredentials.parse(ApiaryBody(request, expected: SkyZone.expectedBody).object)
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
        guard let profile else { return SkyZone.notVerified }
        return .json(.ok, SignInResponse(auth: .init(verified: true, token: token), profile: profile))
    }

    private func profile(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let header = request.headers["Authorization"]
        guard let token = request.bearerToken else {
            let hint = AuthorizationHints.bearerExpected(header, loginPath: "POST /tokens")
            // A header without the scheme is there: the body says what is wrong with it.
            throw HTTPError(.unauthorized, header == nil ? "Missing \"Authorization: Bearer <token>\" header"
                                                          : "Authorization must be \"Bearer <token>\"", hint: hint)
        }
        let (profile, expired): (SkyZoneProfile?, Bool) = state.read { state in
            let profile = state.tokens[token].flatMap { state.accounts[$0]?.profile }
            return (profile, profile == nil && state.expired.contains(token))
        }
        guard let profile else {
            throw HTTPError(.unauthorized, "Invalid or expired token", hint: expired ? SkyZone.expiredHint : AuthorizationHints.unknownBearer(token))
        }
        return .json(.ok, profile)
    }

    static let expiredHint = "The token has expired (POST /__mock/tokens/expire); sign in again (POST /tokens) for a new one."

    // MARK: - Helpers

    private struct SignInResponse: Encodable {
        struct Auth: Encodable {
            var verified: Bool
            var token: String
        }

        var auth: Auth
        var profile: SkyZoneProfile
    }

    static func socialKey(_ type: String, _ token: String) -> String { "\(type):\(token)" }
}
