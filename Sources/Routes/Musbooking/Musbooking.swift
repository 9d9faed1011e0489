import Foundation
import HTTPServer

/// The musbooking backend (`seeds/003`): phone + SMS registration, login, profile,
/// e-mail confirmation and password restore under `/api/`.
public final class Musbooking: EmulatedSystem {
    let seed: MusbookingSeed
    let environment: MockEnvironment
    let state: Locked<MusbookingState>

    public init(seed: MusbookingSeed, environment: MockEnvironment) {
        self.seed = seed
        self.environment = environment
        state = Locked(MusbookingState(seed: seed))
    }

    public func reset() {
        state.withLock { $0 = MusbookingState(seed: seed) }
    }

    public func register(in router: inout Router) {
        router.post("/api/users/sms", handler { [self] in try sendCode($0) })
        router.post("/api/users/register", handler { [self] in try registerUser($0) })
        router.post("/api/auth/login", handler { [self] in try login($0) })
        router.get("/api/auth/login", handler { [self] in try login($0) })
        router.get("/api/users/user", handler { [self] in try profile($0) })
        router.post("/api/users/change", handler { [self] in try change($0) })
        router.post("/api/users/restore", handler { [self] in try restore($0) })
        router.post("/api/users/send-confirm", handler { [self] in try sendConfirmation($0) })
        // Opened from an e-mail in a browser (GET); some clients POST it.
        router.get("/api/users/confirm", handler { [self] in try confirm($0) })
        router.post("/api/users/confirm", handler { [self] in try confirm($0) })
        router.get("/api/categories/:id", handler { [self] in try category($0) })
    }

    /// Turns a thrown `MusbookingFailure` into its response.
    private func handler(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> HTTPHandler {
        { [environment] request in
            do {
                return try body(request)
            } catch let failure as MusbookingFailure {
                return failure.response
            } catch {
                // Handlers throw only MusbookingFailure; anything else is a bug worth a log line.
                environment.logger.error("musbooking: unexpected error \(error) for \(request.method) \(request.path)")
                return .text(.internalServerError, "Internal error")
            }
        }
    }

    /// Runs `body` on a copy of the state under the lock and stores the copy only if it returns:
    /// a request that throws half-way leaves no trace. Side effects (outbox) come last in `body`.
    func transaction<R>(_ body: (inout MusbookingState) throws -> R) throws -> R {
        try state.withLock { current in
            var copy = current
            let result = try body(&copy)
            current = copy
            return result
        }
    }

    /// The index of the user owning the request's `Authorization: Bearer <token>`.
    func authenticatedIndex(_ request: HTTPRequest, in state: MusbookingState) throws -> Int {
        guard let token = request.bearerToken, let session = state.sessions[token], let index = state.index(ofUserId: session.userId) else {
            throw MusbookingFailure.accessDenied
        }
        // The document: an expired token is a 400, unlike an unknown one.
        guard environment.clock.now() < session.expiresAt else {
            throw MusbookingFailure.badRequest(MusbookingText.tokenExpired)
        }
        return index
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
