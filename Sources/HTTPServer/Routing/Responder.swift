/// What a request leads to: an answer, or a switch to WebSocket (the 101 response and the endpoint).
package enum RouteOutcome: Sendable {
    case response(HTTPResponse)
    case upgrade(HTTPResponse, WebSocketEndpoint)
}

/// Turns a routed request into its final response: 404, 405 with `Allow`, `HEAD`, `OPTIONS`,
/// CORS preflight and CORS headers. Pure, so it is tested without sockets.
package struct Responder: Sendable {
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
    package var router: Router { parts.router }
    /// Sees every answered request and its response (journal, faults); nil costs nothing.
    package var middleware: Middleware? { parts.middleware }

    package init(router: Router, middleware: Middleware? = nil) {
        parts = Parts(router: router, middleware: middleware)
    }

    /// Answers any request: a response, or for a valid handshake on a WebSocket route an upgrade.
    /// The caller's context comes back with what the responder, the middleware and the handler put
    /// in it (the owner, the delivery, the log level; for an upgrade, the delay an admission puts
    /// on the 101).
    package func outcome(for request: HTTPRequest, in context: inout RequestContext) -> RouteOutcome {
        if WebSocketHandshake.isUpgradeRequest(request) {
            var routed = context
            if case .webSocket(let endpoint) = parts.router.match(request, context: &routed, isUpgrade: true) {
                let (response, accepted) = WebSocketHandshake.response(for: request)
                if accepted, let admission = endpoint.admission {
                    switch admission(request, routed) {
                    case .answerAsHTTP: return .response(respond(to: request, in: &context))
                    case .accept(let delayNanos): context.delivery.delayNanos = delayNanos
                    }
                }
                return accepted ? .upgrade(response, endpoint) : .response(response)
            }
        }
        return .response(respond(to: request, in: &context))
    }

    /// Answers a plain (non-upgrade) HTTP request.
    package func respond(to request: HTTPRequest, context: RequestContext = RequestContext()) -> HTTPResponse {
        var context = context
        return respond(to: request, in: &context)
    }

    /// Answers a plain (non-upgrade) HTTP request in the caller's context. The route is found
    /// first and its group named in the context, so the middleware, the handler, the log and the
    /// journal read the path's owner as the router decided it, once.
    package func respond(to request: HTTPRequest, in context: inout RequestContext) -> HTTPResponse {
        let (found, parameters, owner) = parts.router.route(request, &context)
        // The parameters go into the context, not the request: most routes have none.
        if let parameters, !(parameters.isEmpty && context.pathParameters.isEmpty) { context.pathParameters = parameters }
        if let owner { context.system = parts.router.system(ofGroup: owner) }
        guard let middleware = parts.middleware else { return answer(request, &context, found, owner) }
        return middleware(request, &context) { request, context in answer(request, &context, found, owner) }
    }

    /// The matched route's answer (or the router's own: 404, 405, OPTIONS), with CORS headers.
    private func answer(_ request: HTTPRequest, _ context: inout RequestContext, _ found: RouteMatch, _ owner: Int?) -> HTTPResponse {
        var response: HTTPResponse
        // The raw value against a literal: comparing with `.options` copied the static on every
        // request.
        if request.method.rawValue == "OPTIONS" {
            response = options(request, found, owner)
        } else {
            switch found {
            case .http(let handler):
                response = handler(request, &context)
            case .webSocket:
                // Only reachable with isUpgrade; kept for exhaustiveness.
                response = .text(.upgradeRequired, "This endpoint speaks WebSocket only.\n")
            case .methodNotAllowed(let allowed):
                if allowed.contains(.get) && request.method == .get {
                    // A WebSocket-only path asked with a plain GET.
                    response = .text(.upgradeRequired, "This endpoint speaks WebSocket only; send an Upgrade: websocket handshake.\n")
                    response.headers.set("Upgrade", "websocket")
                } else {
                    response = parts.router.errorResponse(.methodNotAllowed, "Method \(request.method) not allowed on \(request.path)", owner: owner)
                }
                response.headers.set("Allow", Responder.allowHeader(allowed))
            case .notFound:
                response = parts.router.errorResponse(.notFound, "Not Found: \(request.path)", owner: owner)
            }
        }
        if request.headers.contains("Origin") {
            Responder.addCORS(to: &response, for: request, crossOrigin: parts.router.allowsCrossOrigin(owner: owner, path: request.path))
        }
        return response
    }

    /// The answer to `OPTIONS`: no route registers it, so what the router found for the path is
    /// its `Allow` list (a 405's), and for a CORS preflight what was asked for, so browsers may go
    /// on with the real request.
    private func options(_ request: HTTPRequest, _ found: RouteMatch, _ owner: Int?) -> HTTPResponse {
        if request.target == "*" {
            var r = HTTPResponse.empty(.noContent)
            r.headers.set("Allow", "GET, HEAD, POST, PUT, DELETE, OPTIONS")
            return r
        }
        guard case .methodNotAllowed(let allowed) = found else {
            return parts.router.errorResponse(.notFound, "Not Found: \(request.path)", owner: owner)
        }
        var r = HTTPResponse.empty(.noContent)
        r.headers.set("Allow", Responder.allowHeader(allowed))
        if request.headers.contains("Access-Control-Request-Method") {
            let asked = request.headers["Access-Control-Request-Method"] ?? ""
            r.headers.set("Access-Control-Allow-Methods", asked.isEmpty ? Responder.allowHeader(allowed) : asked)
            if let askedHeaders = request.headers["Access-Control-Request-Headers"], !askedHeaders.isEmpty {
                r.headers.set("Access-Control-Allow-Headers", askedHeaders)
            }
            r.headers.set("Access-Control-Max-Age", "600")
        }
        return r
    }

    /// CORS headers for a request with an `Origin`. A group that refuses cross-origin reads (the
    /// admin paths, read by their own same-origin console) gets none, and its preflights lose what
    /// they would pass: a page from elsewhere in the developer's browser must not read SMS codes
    /// or pass a preflight to reset the server.
    static func addCORS(to response: inout HTTPResponse, for request: HTTPRequest, crossOrigin: Bool) {
        guard let origin = request.headers["Origin"] else { return }
        if !crossOrigin {
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
