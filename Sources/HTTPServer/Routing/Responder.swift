/// What a request leads to: an answer, or a switch to WebSocket (the 101 response and the endpoint).
public enum RouteOutcome: Sendable {
    case response(HTTPResponse)
    case upgrade(HTTPResponse, WebSocketEndpoint)
}

/// Turns a routed request into its final response: 404, 405 with `Allow`, `HEAD`, `OPTIONS`,
/// CORS preflight and CORS headers. Pure, so it is tested without sockets.
public struct Responder: Sendable {
    /// The router and middleware behind one reference: the loop reads its responder for every
    /// request and `respond` hands `respondDirectly` (a capture of `self`) to the middleware, so
    /// a copy costs one retain instead of one per field of the router.
    private final class Parts: Sendable {
        let router: Router
        let middleware: Middleware?

        init(router: Router, middleware: Middleware?) {
            self.router = router
            self.middleware = middleware
        }
    }

    private let parts: Parts
    public var router: Router { parts.router }
    /// Sees every answered request and its response (journal, faults); nil costs nothing.
    public var middleware: Middleware? { parts.middleware }

    public init(router: Router, middleware: Middleware? = nil) {
        parts = Parts(router: router, middleware: middleware)
    }

    /// Answers any request: a response, or for a valid handshake on a WebSocket route an upgrade.
    public func outcome(for request: HTTPRequest, context: RequestContext = RequestContext()) -> RouteOutcome {
        if WebSocketHandshake.isUpgradeRequest(request) {
            var routed = context
            if case .webSocket(let endpoint) = parts.router.match(request, context: &routed, isUpgrade: true) {
                var (response, accepted) = WebSocketHandshake.response(for: request)
                if accepted, let admission = endpoint.admission {
                    switch admission(request, routed) {
                    case .answerAsHTTP: return .response(respond(to: request, context: context))
                    case .accept(let delayNanos): response.delivery.delayNanos = delayNanos
                    }
                }
                return accepted ? .upgrade(response, endpoint) : .response(response)
            }
        }
        return .response(respond(to: request, context: context))
    }

    /// Answers a plain (non-upgrade) HTTP request.
    public func respond(to request: HTTPRequest, context: RequestContext = RequestContext()) -> HTTPResponse {
        guard let middleware = parts.middleware else { return respondDirectly(to: request, context: context) }
        return middleware(request, context, respondDirectly)
    }

    private func respondDirectly(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        var response: HTTPResponse
        // The raw value against a literal: comparing with `.options` copied the static on every
        // request.
        if request.method.rawValue == "OPTIONS" {
            response = options(request)
        } else {
            // Switched on as returned: bound to a constant first, the match was copied.
            switch parts.router.route(request, context) {
            case (.http(let handler), let parameters):
                // The parameters go into the context, not the request: most routes have none.
                if let parameters, !(parameters.isEmpty && context.pathParameters.isEmpty) {
                    var routed = context
                    routed.pathParameters = parameters
                    response = handler(request, routed)
                } else {
                    response = handler(request, context)
                }
            case (.webSocket, _):
                // Only reachable with isUpgrade; kept for exhaustiveness.
                response = .text(.upgradeRequired, "This endpoint speaks WebSocket only.\n")
            case (.methodNotAllowed(let allowed), _):
                if allowed.contains(.get) && request.method == .get {
                    // A WebSocket-only path asked with a plain GET.
                    response = .text(.upgradeRequired, "This endpoint speaks WebSocket only; send an Upgrade: websocket handshake.\n")
                    response.headers.set("Upgrade", "websocket")
                } else {
                    response = parts.router.errorResponse(.methodNotAllowed, "Method \(request.method) not allowed on \(request.path)", request)
                }
                response.headers.set("Allow", Responder.allowHeader(allowed))
            case (.notFound, _):
                response = parts.router.notFound(request)
            }
        }
        Responder.addCORS(to: &response, for: request)
        return response
    }

    private func options(_ request: HTTPRequest) -> HTTPResponse {
        if request.target == "*" {
            var r = HTTPResponse.empty(.noContent)
            r.headers.set("Allow", "GET, HEAD, POST, PUT, DELETE, OPTIONS")
            return r
        }
        let allowed = parts.router.allowedMethods(forPath: request.path)
        guard !allowed.isEmpty else { return parts.router.notFound(request) }
        var r = HTTPResponse.empty(.noContent)
        r.headers.set("Allow", Responder.allowHeader(allowed))
        if request.headers.contains("Access-Control-Request-Method") {
            // Preflight: allow what was asked for, so browsers may go on with the real request.
            let asked = request.headers["Access-Control-Request-Method"] ?? ""
            r.headers.set("Access-Control-Allow-Methods", asked.isEmpty ? Responder.allowHeader(allowed) : asked)
            if let askedHeaders = request.headers["Access-Control-Request-Headers"], !askedHeaders.isEmpty {
                r.headers.set("Access-Control-Allow-Headers", askedHeaders)
            }
            r.headers.set("Access-Control-Max-Age", "600")
        }
        return r
    }

    static func addCORS(to response: inout HTTPResponse, for request: HTTPRequest) {
        guard let origin = request.headers["Origin"] else { return }
        // The admin paths (`/__mock/…`, any case, however many slashes) are read by their own
        // console only, which is same-origin and needs no CORS: a page from elsewhere in the
        // developer's browser must not read SMS codes or pass a preflight to reset the server.
        var segment = Substring(request.path)
        while segment.hasPrefix("/") { segment = segment.dropFirst() }
        if response.system == "admin" || segment.prefix(6).lowercased() == "__mock"
            && (segment.count == 6 || segment.dropFirst(6).hasPrefix("/")) {
            for name in ["Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age"] {
                response.headers.remove(name)
            }
            return
        }
        response.headers.set("Access-Control-Allow-Origin", origin)
        response.headers.set("Access-Control-Allow-Credentials", "true")
        response.headers.add("Vary", "Origin")
        if request.method != .options {
            response.headers.set("Access-Control-Expose-Headers", "*")
        }
    }

    static func allowHeader(_ methods: [HTTPMethod]) -> String {
        methods.map(\.rawValue).joined(separator: ", ")
    }
}
