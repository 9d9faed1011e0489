/// Answers one complete request; runs on an event-loop thread, so it must not block.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Answers one WebSocket message with zero or more messages, in order.
public typealias WebSocketMessageHandler = @Sendable (WebSocketMessage) -> [WebSocketMessage]

/// One application-level WebSocket message (the codec has already joined its fragments).
public enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
}

/// What the router found for a request.
public enum RouteMatch: Sendable {
    case http(HTTPHandler)
    case webSocket(WebSocketMessageHandler)
    case methodNotAllowed(allowed: [HTTPMethod])
    case notFound
}

/// Maps method + path pattern (`/rows/:page`, trailing slash optional) to handlers.
public struct Router: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        let handler: HTTPHandler
        var pattern = ""
    }

    private struct SocketRoute: Sendable {
        let segments: [Segment]
        var handler: WebSocketMessageHandler
        var pattern = ""
    }

    private var routes: [Route] = []
    private var socketRoutes: [SocketRoute] = []
    /// Routes without parameters, by normalised path: most requests are found with one hash lookup.
    private var staticIndex: [String: [Int]] = [:]
    /// Indices of routes with `:name` segments, tried in order after the static ones.
    private var parameterised: [Int] = []

    /// Builds the body of the router's own answers (404, 405), so that each emulated system can
    /// keep its error shape; the status and the `Allow` header are set by the responder.
    public var errorResponse: @Sendable (_ status: HTTPStatus, _ message: String, _ request: HTTPRequest) -> HTTPResponse = {
        status, message, _ in .jsonError(status, message)
    }

    /// The answer for a path no route knows.
    public func notFound(_ request: HTTPRequest) -> HTTPResponse {
        errorResponse(.notFound, "Not Found: \(request.path)", request)
    }

    public init() {}

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        let segments = Router.compile(pattern)
        let index = routes.count
        routes.append(Route(method: method, segments: segments, handler: handler, pattern: pattern))
        let literals = segments.compactMap { segment -> String? in
            if case .literal(let text) = segment { return text }
            return nil
        }
        if literals.count == segments.count {
            staticIndex["/" + literals.joined(separator: "/"), default: []].append(index)
        } else {
            parameterised.append(index)
        }
    }

    public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.delete, pattern, handler) }

    /// A WebSocket endpoint: a GET with a valid upgrade handshake on this path is handed to `handler`.
    public mutating func webSocket(_ pattern: String, _ handler: @escaping WebSocketMessageHandler) {
        socketRoutes.append(SocketRoute(segments: Router.compile(pattern), handler: handler, pattern: pattern))
    }

    /// Every registered route as registered (`method` nil for a WebSocket endpoint), for
    /// documents and tests that must not drift from the table.
    public var routeTable: [(method: HTTPMethod?, pattern: String)] {
        routes.map { ($0.method, $0.pattern) } + socketRoutes.map { (nil, $0.pattern) }
    }

    /// Wraps the handler of every WebSocket endpoint (the control plane journals and faults messages).
    public mutating func wrapWebSocketHandlers(_ wrap: (_ pattern: String, _ handler: @escaping WebSocketMessageHandler) -> WebSocketMessageHandler) {
        for i in socketRoutes.indices { socketRoutes[i].handler = wrap(socketRoutes[i].pattern, socketRoutes[i].handler) }
    }

    /// Finds the handler for a request and fills in its path parameters.
    /// `HEAD` falls back to the `GET` route; WebSocket routes match only upgrade requests.
    public func match(_ request: inout HTTPRequest, isUpgrade: Bool = false) -> RouteMatch {
        var parts: [Substring]?
        if isUpgrade && request.method == .get {
            let p = Router.split(request.path)
            parts = p
            for route in socketRoutes {
                if let params = Router.bind(route.segments, p) {
                    request.pathParameters = params
                    return .webSocket(route.handler)
                }
            }
        }
        var allowed: [HTTPMethod] = []
        var headFallback: (HTTPHandler, [String: String])?
        var exact: (HTTPHandler, [String: String])?
        // One rule for static and parameterised routes: the method decides, HEAD may use GET,
        // and every other method on the path is remembered for 405's Allow.
        func consider(_ route: Route, _ params: [String: String]) {
            if route.method == request.method { exact = (route.handler, params); return }
            if request.method == .head && route.method == .get && headFallback == nil { headFallback = (route.handler, params) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        for i in staticIndex[Router.normalize(request.path)] ?? [] {
            consider(routes[i], [:])
            if exact != nil { break }
        }
        if exact == nil && !parameterised.isEmpty {
            let p = parts ?? Router.split(request.path)
            parts = p
            for i in parameterised {
                guard let params = Router.bind(routes[i].segments, p) else { continue }
                consider(routes[i], params)
                if exact != nil { break }
            }
        }
        if let (handler, params) = exact ?? headFallback {
            request.pathParameters = params
            return .http(handler)
        }
        if !socketRoutes.isEmpty {
            let p = parts ?? Router.split(request.path)
            for route in socketRoutes where Router.bind(route.segments, p) != nil {
                if !allowed.contains(.get) { allowed.append(.get) }
            }
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        allowed.append(.options)
        return .methodNotAllowed(allowed: allowed)
    }

    /// The path as a static-route key: empty segments dropped (`/a//b/` is `/a/b`), as matching does.
    private static func normalize(_ path: String) -> String {
        var previousSlash = false
        var clean = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if previousSlash { clean = false; break }
                previousSlash = true
            } else {
                previousSlash = false
            }
        }
        if clean && (!previousSlash || path.utf8.count == 1) { return path }
        return "/" + split(path).joined(separator: "/")
    }

    /// The methods a path accepts (for `OPTIONS` and CORS preflight); empty for unknown paths.
    /// It is the `Allow` list `match` builds for a 405, asked with a method no route registers.
    public func allowedMethods(forPath path: String) -> [HTTPMethod] {
        var probe = HTTPRequest(method: .options, target: path)
        if case .methodNotAllowed(let allowed) = match(&probe) { return allowed }
        return []
    }

    private static func compile(_ pattern: String) -> [Segment] {
        split(pattern).map { $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal(String($0)) }
    }

    /// Non-empty segments between slashes, found on the UTF-8 view (a Character-wise split
    /// was a fifth of routing's cost).
    private static func split(_ path: String) -> [Substring] {
        var parts: [Substring] = []
        let utf8 = path.utf8
        var start = utf8.startIndex
        var i = start
        while i != utf8.endIndex {
            if utf8[i] == UInt8(ascii: "/") {
                if i != start { parts.append(Substring(utf8[start..<i])) }
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        if start != utf8.endIndex { parts.append(Substring(utf8[start..<utf8.endIndex])) }
        return parts
    }

    private static func bind(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var params: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard part.utf8.elementsEqual(text.utf8) else { return nil }
            case .parameter(let name):
                params[name] = FormDecoding.percentDecode(part, plusIsSpace: false)
            }
        }
        return params
    }
}
