import EmulationKit
import HTTPServer

/// The PIN login's seed: the one PIN that signs in, and whose name it is.
package struct PinLoginSeed: Decodable, Sendable {
    package var pin: String
    package var name: String
}

/// A PIN login: a PIN for a bearer token, and the signed-in name.
package final class PinLogin: EmulatedSystem {
    package static let name = "pin"
    package static let title = "PIN login"
    package static let seedKey = "pin"

    let seed: PinLoginSeed
    let random: any RandomSource
    /// The tokens handed out; `reset` forgets them.
    let tokens = Locked(Set<String>())

    package init(seed: PinLoginSeed, environment: MockEnvironment) {
        self.seed = seed
        random = environment.random
    }

    package let summary = "A PIN login: a PIN for a bearer token."
    package let endpoints = [
        Endpoint("POST", "/pin/login", "Sign in with {\"pin\"}; {\"token\"}."),
        Endpoint("GET", "/pin/me", "The signed-in name (Authorization: Bearer <token>)."),
    ]
    package var seedAccount: String? { "PIN \(seed.pin)" }
    /// Owns `/pin` and everything under it; errors are `{"error": "…"}`.
    package let routeGroup = RouteGroup(system: PinLogin.name, prefixes: ["/pin"]) {
        .json($0.status, ["error": .string($0.message)] as JSONValue)
    }

    package func register(in router: inout Router) {
        router.post("/pin/login") { [self] request throws(HTTPError) in
            let body = try ApiaryBody(request, expected: "{\"pin\": \"1234\"}").object
            guard body["pin"]?.string == seed.pin else { throw HTTPError(.unauthorized, "Wrong PIN") }
            let token = random.token()
            tokens.withLock { _ = $0.insert(token) }
            return .json(.ok, ["token": .string(token)] as JSONValue)
        }
        router.get("/pin/me") { [self] request throws(HTTPError) in
            guard let token = request.bearerToken, tokens.withLock({ $0.contains(token) }) else {
                throw HTTPError(.unauthorized, "Unknown token")
            }
            return .json(.ok, ["name": .string(seed.name)] as JSONValue)
        }
    }

    package func reset() { tokens.withLock { $0.removeAll() } }
    /// No expired answer of its own: an expired token is an unknown one.
    package func expireTokens(_ token: String?) -> Int { revokeTokens(token) }
    package func revokeTokens(_ token: String?) -> Int {
        tokens.withLock { set in
            guard let token else { defer { set.removeAll() }; return set.count }
            return set.remove(token) == nil ? 0 : 1
        }
    }
}
