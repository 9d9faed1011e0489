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
    case webSocket(WebSocketEndpoint)
    case methodNotAllowed(allowed: [HTTPMethod])
    case notFound
}

/// A handler that fails by throwing the one typed error; its route group words the answer.
public typealias ThrowingHTTPHandler = @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse

/// The routes of one emulated system: the path prefixes it owns, the shape of its error bodies
/// (used for thrown `HTTPError`s and for the router's own 404 and 405 under its prefixes), whether
/// its paths match in any letter case (ASP.NET routing does, Vapor's does not), and its name,
/// put on every response it gives (`HTTPResponse.system`).
public struct RouteGroup: Sendable {
    public var system: String
    /// Path prefixes by whole segments: `/api` owns `/api` and `/api/…`, not `/apix`.
    public var prefixes: [String]
    public var caseInsensitive: Bool
    public var errorShape: @Sendable (HTTPError) -> HTTPResponse

    public init(system: String, prefixes: [String], caseInsensitive: Bool = false,
                errorShape: @escaping @Sendable (HTTPError) -> HTTPResponse = RouteGroup.vaporShape) {
        self.system = system
        self.prefixes = prefixes
        self.caseInsensitive = caseInsensitive
        self.errorShape = errorShape
    }

    /// Vapor's `{"error": true, "reason": …}`: the transport's default for paths no group owns.
    public static let vaporShape: @Sendable (HTTPError) -> HTTPResponse = { .jsonError($0.status, $0.message) }

    /// Whether the path lies under one of the prefixes.
    public func owns(_ path: String) -> Bool {
        prefixes.contains { prefix in
            let p = prefix.utf8, s = path.utf8
            guard s.count >= p.count else { return false }
            let head = Substring(s.prefix(p.count))
            let same = caseInsensitive ? head.equalsIgnoringASCIICase(prefix) : head.utf8.elementsEqual(p)
            guard same else { return false }
            return s.count == p.count || s[s.index(s.startIndex, offsetBy: p.count)] == UInt8(ascii: "/")
        }
    }

    /// The response for an error of this group: its shape, its hint, its system.
    public func response(for error: HTTPError) -> HTTPResponse {
        var response = errorShape(error)
        if let hint = error.hint { response = response.hinted(hint) }
        response.system = system
        return response
    }
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
        let caseInsensitive: Bool
        let handler: HTTPHandler
        var pattern = ""
    }

    private struct SocketRoute: Sendable {
        let segments: [Segment]
        let admit: (@Sendable (HTTPRequest) -> Bool)?
        var handler: WebSocketEndpoint
        var pattern = ""
    }

    private var routes: [Route] = []
    private var socketRoutes: [SocketRoute] = []
    /// Routes without parameters, by normalised path (lowercased for case-insensitive groups):
    /// most requests are found with one hash lookup.
    private var staticIndex: [String: [Int]] = [:]
    /// Indices of routes with `:name` segments, tried in order after the static ones.
    private var parameterised: [Int] = []
    private var groups: [RouteGroup] = []
    /// The group routes are added to now (`group(_:_:)`), or nil.
    private var currentGroup: RouteGroup?
    private var hasCaseInsensitiveRoutes = false

    /// The error shape of paths no group owns (Vapor's, the rows app's framework).
    public var defaultErrorShape: @Sendable (HTTPError) -> HTTPResponse = RouteGroup.vaporShape

    /// The body of the router's own answers (404, 405) in the shape of the group owning the path;
    /// the status and the `Allow` header are set by the responder.
    public func errorResponse(_ status: HTTPStatus, _ message: String, _ request: HTTPRequest) -> HTTPResponse {
        let error = HTTPError(status, message)
        if let group = groups.first(where: { $0.owns(request.path) }) { return group.response(for: error) }
        return defaultErrorShape(error)
    }

    /// The answer for a path no route knows.
    public func notFound(_ request: HTTPRequest) -> HTTPResponse {
        errorResponse(.notFound, "Not Found: \(request.path)", request)
    }

    public init() {}

    /// Adds routes through `body` as members of `group`.
    public mutating func group(_ group: RouteGroup, _ body: (inout Router) -> Void) {
        groups.append(group)
        let outer = currentGroup
        currentGroup = group
        body(&self)
        currentGroup = outer
    }

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ThrowingHTTPHandler) {
        let group = currentGroup
        let caseInsensitive = group?.caseInsensitive ?? false
        let segments = Router.compile(caseInsensitive ? pattern.lowercased() : pattern)
        let index = routes.count
        routes.append(Route(method: method, segments: segments, caseInsensitive: caseInsensitive,
                            handler: Router.wrap(handler, group: group, defaultShape: defaultErrorShape), pattern: pattern))
        hasCaseInsensitiveRoutes = hasCaseInsensitiveRoutes || caseInsensitive
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

    /// One error path: a thrown `HTTPError` becomes the group's body shape; the group's system
    /// is put on every answer.
    private static func wrap(_ handler: @escaping ThrowingHTTPHandler, group: RouteGroup?,
                             defaultShape: @escaping @Sendable (HTTPError) -> HTTPResponse) -> HTTPHandler {
        guard let group else {
            return { request in
                do throws(HTTPError) { return try handler(request) } catch {
                    var response = defaultShape(error)
                    if let hint = error.hint { response = response.hinted(hint) }
                    return response
                }
            }
        }
        let system = group.system
        return { request in
            do throws(HTTPError) {
                var response = try handler(request)
                response.system = system
                return response
            } catch {
                return group.response(for: error)
            }
        }
    }

    public mutating func get(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.delete, pattern, handler) }

    /// A WebSocket endpoint: a GET with a valid upgrade handshake on this path is handed to `handler`.
    /// A handshake `admit` refuses is routed as a plain request (so an HTTP route on the same
    /// path can say why).
    public mutating func webSocket(_ pattern: String, admit: (@Sendable (HTTPRequest) -> Bool)? = nil,
                                   _ handler: @escaping WebSocketMessageHandler) {
        webSocket(pattern, admit: admit, WebSocketEndpoint(handler))
    }

    /// A WebSocket endpoint with open/close callbacks and a connection handle (push, delayed replies, close codes).
    public mutating func webSocket(_ pattern: String, admit: (@Sendable (HTTPRequest) -> Bool)? = nil,
                                   _ endpoint: WebSocketEndpoint) {
        socketRoutes.append(SocketRoute(segments: Router.compile(pattern), admit: admit, handler: endpoint, pattern: pattern))
    }

    /// Every registered route as registered (`method` nil for a WebSocket endpoint), for
    /// documents and tests that must not drift from the table.
    public var routeTable: [(method: HTTPMethod?, pattern: String)] {
        routes.map { ($0.method, $0.pattern) } + socketRoutes.map { (nil, $0.pattern) }
    }

    /// Wraps every WebSocket endpoint (the control plane journals and faults messages).
    public mutating func wrapWebSocketEndpoints(_ wrap: (_ pattern: String, _ endpoint: WebSocketEndpoint) -> WebSocketEndpoint) {
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
                if let params = Router.bind(route.segments, p, caseInsensitive: false), route.admit?(request) ?? true {
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
        let key = Router.normalize(request.path)
        var found = false
        for i in staticIndex[key] ?? [] {
            found = true
            consider(routes[i], [:])
            if exact != nil { break }
        }
        // Case-insensitive groups are keyed lowercased; only their routes may match that way.
        if !found && hasCaseInsensitiveRoutes && key.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) {
            for i in staticIndex[key.lowercased()] ?? [] where routes[i].caseInsensitive {
                consider(routes[i], [:])
                if exact != nil { break }
            }
        }
        if exact == nil && !parameterised.isEmpty {
            let p = parts ?? Router.split(request.path)
            parts = p
            for i in parameterised {
                guard let params = Router.bind(routes[i].segments, p, caseInsensitive: routes[i].caseInsensitive) else { continue }
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
            for route in socketRoutes where Router.bind(route.segments, p, caseInsensitive: false) != nil {
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

    private static func bind(_ segments: [Segment], _ parts: [Substring], caseInsensitive: Bool) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var params: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard caseInsensitive ? part.equalsIgnoringASCIICase(text) : part.utf8.elementsEqual(text.utf8) else { return nil }
            case .parameter(let name):
                params[name] = FormDecoding.percentDecode(part, plusIsSpace: false)
            }
        }
        return params
    }
}
