#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The musbooking backend (`seeds/003`, an ASP.NET server): phone + SMS registration, login,
/// profile, e-mail confirmation and password restore under `/api/`.
package final class Musbooking: EmulatedSystem {
    let seed: MusbookingSeed
    let environment: MockEnvironment
    /// Every change goes through `transaction` (validate, then commit; the state file follows), reads through `inspect`.
    let state: StateCell<MusbookingState>
    let pendingCodeCap: StateCap
    /// The users' and sessions' JSON kept between writes of the state file.
    let usersJSON = EncodedListCache<MusbookingUser>()
    let sessionsJSON = KeyedJSONCache<String, MusbookingState.Session>()
    let accountCap: StateCap
    package let seedAccount: String?

    package init(seed: MusbookingSeed, environment: MockEnvironment) {
        self.seed = seed
        self.environment = environment
        seedAccount = seed.users.first { $0.isAccount }.map { "\($0.login ?? "") / \($0.password ?? "")" }
        pendingCodeCap = StateCap(Musbooking.pendingCodesSetting, environment: environment)
        accountCap = StateCap(Musbooking.accountsSetting, environment: environment)
        state = StateCell(MusbookingState(seed: seed, maxPendingCodes: pendingCodeCap.limit))
    }

    package func reset() {
        state.replace(MusbookingState(seed: seed, maxPendingCodes: pendingCodeCap.limit))
    }

    package static let name = "musbooking"
    package static let title = "Musbooking"
    package static let seedKey = "musbooking"
    package let summary = "musbooking (document 003, ASP.NET): phone + SMS registration, login, profile, e-mail confirmation, password restore."
    package let endpoints = [
        Endpoint("POST", "/api/users/sms", "Send an SMS code to phone (read it from GET /__mock/sms)."),
        Endpoint("POST", "/api/users/register", "Register with name, phone, code (login, password, lastname, surname, email, birthday optional)."),
        Endpoint("POST", "/api/auth/login", "Log in with login and password (GET too); {\"key\", \"token\"}."),
        Endpoint("GET", "/api/users/user", "The signed-in user's profile (Authorization: Bearer <token>)."),
        Endpoint("POST", "/api/users/change", "Change name, lastname, surname, email, birthday, fcm; blank fields are ignored."),
        Endpoint("POST", "/api/users/restore", "A new password by SMS (sms=true) or e-mail, for login, mail or phone."),
        Endpoint("POST", "/api/users/send-confirm", "E-mail the confirmation link (read it from GET /__mock/emails)."),
        Endpoint("GET", "/api/users/confirm", "The confirmation link: ?id=<user id> marks the e-mail confirmed."),
        Endpoint("GET", "/api/categories/:id", "A category from the seed."),
    ]
    /// Paths in any letter case, as ASP.NET routes; errors are plain text.
    package let routeGroup = RouteGroup(system: Musbooking.name, prefixes: ["/api"], caseInsensitive: true, errorShape: Musbooking.errorShape)

    /// 400 (and every other error) as plain text; 401 is `Access denied` naming the Bearer scheme.
    static let errorShape: @Sendable (HTTPError) -> HTTPResponse = { error in
        var response = HTTPResponse.text(error.status, error.message)
        if error.status == .unauthorized { response.headers.set("WWW-Authenticate", "Bearer") }
        return response
    }

    package func register(in router: inout Router) {
        router.post("/api/users/sms", handler { [self] (request, _) throws(HTTPError) in try sendCode(request) })
        router.post("/api/users/register", handler { [self] (request, _) throws(HTTPError) in try registerUser(request) })
        router.post("/api/auth/login", handler { [self] (request, _) throws(HTTPError) in try login(request) })
        router.get("/api/auth/login", handler { [self] (request, _) throws(HTTPError) in try login(request) })
        router.get("/api/users/user", handler { [self] (request, _) throws(HTTPError) in try profile(request) })
        router.post("/api/users/change", handler { [self] (request, _) throws(HTTPError) in try change(request) })
        router.post("/api/users/restore", handler { [self] (request, _) throws(HTTPError) in try restore(request) })
        router.post("/api/users/send-confirm", handler { [self] (request, context) throws(HTTPError) in try sendConfirmation(request, context) })
        // Opened from an e-mail in a browser (GET); some clients POST it.
        router.get("/api/users/confirm", handler { [self] (request, _) throws(HTTPError) in try confirm(request) })
        router.post("/api/users/confirm", handler { [self] (request, _) throws(HTTPError) in try confirm(request) })
        router.get("/api/categories/:id", handler { [self] (request, context) throws(HTTPError) in try category(request, context) })
    }

    package func expireTokens(_ token: String?) -> Int {
        let now = environment.clock.now()
        return state.withLock { $0.expireSessions(token, now: now) }
    }

    package func revokeTokens(_ token: String?) -> Int {
        state.withLock { $0.endSessions(token) }
    }

    /// Adds the JSON-body hint to any error of a request whose JSON body was not read, and the
    /// missing-Content-Type hint to one whose form body was not read for want of a type.
    private func handler(_ body: @escaping ContextualHTTPHandler) -> ContextualHTTPHandler {
        { request, context throws(HTTPError) in
            do throws(HTTPError) {
                return try body(request, &context)
            } catch {
                guard !request.body.isEmpty, request.mediaType != "multipart/form-data" else { throw error }
                if request.bodyLooksLikeJSON { throw error.hinted(ASPNetParameters.jsonBodyHint) }
                if request.mediaType.isEmpty, error.hint == nil { throw error.hinted(ASPNetParameters.untypedBodyHint) }
                throw error
            }
        }
    }

    /// The request's parameters as ASP.NET binds them; text that is not UTF-8 is a 400.
    func parameters(_ request: HTTPRequest) throws(HTTPError) -> ASPNetParameters {
        try ASPNetParameters(request) { HTTPError(.badRequest, MusbookingText.malformedRequest($0)) }
    }

    /// One change to the state, under the lock, in two steps whose order the types keep:
    /// `validate` sees the state read-only and may refuse (throw); `commit` applies what it
    /// returned and cannot throw. A request therefore changes everything it meant to or nothing,
    /// and the state file hears only of committed changes. In place: copying the state to
    /// commit a copy would cost O(users) per request. Side effects (outbox) come after.
    func transaction<Plan, R>(validate: (MusbookingState) throws(HTTPError) -> Plan,
                              commit: (inout MusbookingState, Plan) -> R) throws(HTTPError) -> R {
        try state.withLock { (state) throws(HTTPError) -> R in
            let plan = try validate(state)
            return commit(&state, plan)
        }
    }

    /// Runs `body` on the state under the lock without changing it: the state file is not told,
    /// so a profile or category read (or a `HEAD`) never wakes its writer.
    func inspect<R>(_ body: (MusbookingState) throws(HTTPError) -> R) throws(HTTPError) -> R {
        try state.read { (state) throws(HTTPError) -> R in try body(state) }
    }

    static let expiredTokenHint = "The token has expired; log in again (POST /api/auth/login) for a new one."

    /// The user owning the request's `Authorization: Bearer <token>`.
    func authenticatedUser(_ request: HTTPRequest, in state: MusbookingState) throws(HTTPError) -> MusbookingUser {
        guard let token = request.bearerToken else {
            throw HTTPError(.unauthorized, "Access denied",
                            hint: AuthorizationHints.bearerExpected(request.headers["Authorization"], loginPath: "POST /api/auth/login"))
        }
        guard let session = state.sessions[token], let user = state.user(id: session.userId) else {
            throw HTTPError(.unauthorized, "Access denied", hint: AuthorizationHints.unknownBearer(token))
        }
        // The document: an expired token is a 400, unlike an unknown one.
        guard environment.clock.now() < session.expiresAt else {
            throw HTTPError(.badRequest, MusbookingText.tokenExpired, hint: Musbooking.expiredTokenHint)
        }
        return user
    }

    /// A fresh password of the seed's length with letters and at least one digit and one letter,
    /// so it passes the password rule. Look-alike characters are left out: people retype it from an SMS.
    func generatePassword() -> String {
        let letters = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ", digits = "23456789"
        let random = environment.random
        var chars = Array(random.string(length: seed.generatedPasswordLength - 2, alphabet: letters + digits))
        chars.insert(contentsOf: random.string(length: 1, alphabet: letters), at: random.int(in: 0...chars.count))
        chars.insert(contentsOf: random.string(length: 1, alphabet: digits), at: random.int(in: 0...chars.count))
        return String(chars)
    }
}
