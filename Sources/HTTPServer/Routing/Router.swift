/// Answers one complete request in its context; runs on an event-loop thread, so it must not block.
/// The context is passed `inout`: a handler that defers its answer says so there.
package typealias HTTPHandler = @Sendable (HTTPRequest, inout RequestContext) -> HTTPResponse

/// What the router found for a request.
package enum RouteMatch: Sendable {
    case http(HTTPHandler)
    case webSocket(WebSocketEndpoint)
    case methodNotAllowed(allowed: [HTTPMethod])
    case notFound
}

/// A handler that fails by throwing the one typed error; its route group words the answer.
package typealias ThrowingHTTPHandler = @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse

/// A throwing handler that also reads the request's context (peer, port, path parameters) and
/// may write to it (a deferred answer).
package typealias ContextualHTTPHandler = @Sendable (HTTPRequest, inout RequestContext) throws(HTTPError) -> HTTPResponse

/// The routes of one emulated system: the path prefixes it owns, the shape of its error bodies
/// (used for thrown `HTTPError`s and for the router's own 404 and 405 under its prefixes), whether
/// its paths match in any letter case (ASP.NET routing does, Vapor's does not), whether pages of
/// other origins may read its answers (CORS), and its name, the owner the responder puts in the
/// context of every request on its routes or under its prefixes (`RequestContext.owner`).
package struct RouteGroup: Sendable {
    package var system: String
    /// Path prefixes by whole segments: `/api` owns `/api` and `/api/…`, not `/apix`.
    package var prefixes: [String]
    package var caseInsensitive: Bool
    package var errorShape: @Sendable (HTTPError) -> HTTPResponse
    /// Whether answers carry CORS headers for a request with an `Origin`; a group read only by
    /// its own same-origin pages (an admin console) says no, and its preflights pass nothing.
    package var allowsCrossOrigin: Bool
    /// Whether a path one of its static routes spells is that route's alone, its other methods a
    /// 405. The frameworks the systems copy fall through to a parameterised route for another
    /// method (Vapor's router is per method; ASP.NET rejects a candidate by method and takes the
    /// next), so the systems' groups say no. The mock's own admin API says yes: otherwise
    /// `GET /__admin/mappings/save` would be `GET /__admin/mappings/:id` for the id "save", and
    /// `Allow` would list methods the OpenAPI document does not have on that path.
    package var staticPathsAreExclusive: Bool
    /// What the group is for: a system's routes, or the mock's own admin routes (which the
    /// stages pass by).
    package var role: RouteOwner.Role

    package init(system: String, prefixes: [String], caseInsensitive: Bool = false, allowsCrossOrigin: Bool = true,
                staticPathsAreExclusive: Bool = false, role: RouteOwner.Role = .system,
                errorShape: @escaping @Sendable (HTTPError) -> HTTPResponse = RouteGroup.vaporShape) {
        self.system = system
        self.prefixes = prefixes
        self.caseInsensitive = caseInsensitive
        self.allowsCrossOrigin = allowsCrossOrigin
        self.staticPathsAreExclusive = staticPathsAreExclusive
        self.role = role
        self.errorShape = errorShape
    }

    /// Vapor's `{"error": true, "reason": …}`: the transport's default for paths no group owns.
    package static let vaporShape: @Sendable (HTTPError) -> HTTPResponse = { .jsonError($0.status, $0.message) }

    /// Whether the path lies under one of the prefixes.
    package func owns(_ path: String) -> Bool {
        prefixes.contains { prefix in
            let p = prefix.utf8, s = path.utf8
            guard s.count >= p.count else { return false }
            let head = Substring(s.prefix(p.count))
            let same = caseInsensitive ? head.equalsIgnoringASCIICase(prefix) : head.utf8.elementsEqual(p)
            guard same else { return false }
            return s.count == p.count || s[s.index(s.startIndex, offsetBy: p.count)] == UInt8(ascii: "/")
        }
    }

    /// The response for an error of this group: its shape and its hint.
    package func response(for error: HTTPError) -> HTTPResponse { RouteGroup.response(for: error, shape: errorShape) }

    /// An error's answer in `shape` with its hint: a group's shape, or the default one outside any group.
    static func response(for error: HTTPError, shape: (HTTPError) -> HTTPResponse) -> HTTPResponse {
        let response = shape(error)
        guard let hint = error.hint else { return response }
        return response.hinted(hint)
    }
}

/// A route's pattern compiled at registration, matched on the path's UTF-8 bytes: plain values,
/// so trying a route retains nothing.
private struct RoutePattern: Sendable {
    /// One segment: a literal's bytes in `literals`, or a parameter.
    enum Piece: Sendable {
        case literal(Range<Int>)
        case parameter
    }

    /// The literal segments' bytes back to back (lower-cased for case-insensitive groups).
    let literals: [UInt8]
    let pieces: [Piece]
    /// The parameters' names, in order.
    let names: [String]

    init(_ pattern: String) {
        var literals: [UInt8] = [], pieces: [Piece] = [], names: [String] = []
        var text = pattern
        text.withUTF8 { path in
            // The same segments a request's path is cut into.
            var cursor = SegmentCursor(path)
            while let segment = cursor.next() {
                let part = UnsafeBufferPointer(rebasing: path[segment])
                if part.first == UInt8(ascii: ":") {
                    pieces.append(.parameter)
                    names.append(String(decoding: part.dropFirst(), as: UTF8.self))
                } else {
                    let start = literals.count
                    literals.append(contentsOf: part)
                    pieces.append(.literal(start..<literals.count))
                }
            }
        }
        self.literals = literals
        self.pieces = pieces
        self.names = names
    }

    /// Whether the path's segments spell this pattern: literals byte for byte (with `foldCase`
    /// the path's letters lower-cased first; the pattern's already are), parameters anything.
    /// The caller has checked that the segment counts agree.
    func matches(_ path: UnsafeBufferPointer<UInt8>, foldCase: Bool) -> Bool {
        literals.withUnsafeBufferPointer { literals in
            var cursor = SegmentCursor(path)
            for piece in pieces {
                guard let segment = cursor.next() else { return false }
                guard case .literal(let range) = piece else { continue }
                guard segment.count == range.count else { return false }
                var j = range.lowerBound
                for i in segment {
                    var byte = path[i]
                    if foldCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                    guard byte == literals[j] else { return false }
                    j += 1
                }
            }
            return true
        }
    }

    /// The parameters' values in a path that `matches`, percent-decoded; decoded once, for the
    /// route that answers.
    func bind(_ path: UnsafeBufferPointer<UInt8>) -> PathParameters {
        if names.isEmpty { return PathParameters() }
        var values: [String] = []
        var cursor = SegmentCursor(path)
        for piece in pieces {
            guard let segment = cursor.next() else { break }
            guard case .parameter = piece else { continue }
            let bytes = UnsafeBufferPointer(rebasing: path[segment])
            let value = String(decoding: bytes, as: UTF8.self)
            let decoded = bytes.contains(UInt8(ascii: "%")) ? FormDecoding.percentDecode(value, plusIsSpace: false) : value
            // Most routes have one parameter: an array literal allocates once, where appending
            // to a reserved array went through the array's general growth path.
            if names.count == 1 { return PathParameters([(name: names[0], value: decoded)]) }
            values.append(decoded)
        }
        return PathParameters(zip(names, values).map { (name: $0, value: $1) })
    }
}

/// The non-empty segments of a path, as byte ranges, one after another.
private struct SegmentCursor {
    let path: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ path: UnsafeBufferPointer<UInt8>) { self.path = path }

    mutating func next() -> Range<Int>? {
        while i < path.count && path[i] == UInt8(ascii: "/") { i += 1 }
        guard i < path.count else { return nil }
        let start = i
        while i < path.count && path[i] != UInt8(ascii: "/") { i += 1 }
        return start..<i
    }
}

/// Maps method + path pattern (`/rows/:page`, trailing slash optional) to handlers.
///
/// Matching works on the path's UTF-8 bytes, without splitting it: one pass finds its segment
/// count and length, only routes with as many segments are tried, and literals are compared
/// byte for byte.
package struct Router: Sendable {
    private struct Route: Sendable {
        let method: HTTPMethod
        let compiled: RoutePattern
        let caseInsensitive: Bool
        /// A static route of a group whose static paths are exclusive (`RouteGroup.staticPathsAreExclusive`).
        let exclusivePath: Bool
        let handler: HTTPHandler
        /// The index of the route's group in `groups`, or nil outside any group.
        let group: Int?
        var pattern = ""
    }

    private struct SocketRoute: Sendable {
        let compiled: RoutePattern
        let admit: (@Sendable (HTTPRequest, RequestContext) -> Bool)?
        var handler: WebSocketEndpoint
        var pattern = ""
    }

    /// A route without parameters and the bytes its segments hold: most paths are refused by
    /// comparing that length.
    private struct StaticEntry: Sendable {
        let route: Int
        let length: Int
    }

    private var routes: [Route] = []
    private var socketRoutes: [SocketRoute] = []
    /// Routes without parameters by segment count, then by the bytes their segments hold (one
    /// bucket per length, the longest sharing the last), in order of registration: a request
    /// looks only at routes of its own shape, however many admin routes share its segment count.
    private var staticBySegments: [[[StaticEntry]]] = []
    private static let lengthBuckets = 64
    /// Routes with `:name` segments by segment count, tried in order after the static ones.
    private var parameterisedBySegments: [[Int]] = []
    private var groups: [RouteGroup] = []
    /// Each group as the owner a request names (`RequestContext.owner`).
    private var groupOwners: [RouteOwner] = []
    /// The groups' prefixes as a table: the owner of a path no route matches.
    private var owners = PathOwners(groups: [])
    /// The group routes are added to now (`group(_:_:)`), or nil.
    private var currentGroup: RouteGroup?
    /// `currentGroup`'s index in `groups`.
    private var currentGroupIndex: Int?
    /// What every HTTP handler added now is wrapped in (a group's guard), or nil.
    private var currentAround: (@Sendable (@escaping HTTPHandler) -> HTTPHandler)?
    /// The handshake check of every WebSocket endpoint added now without its own, or nil.
    private var currentAdmit: (@Sendable (HTTPRequest, RequestContext) -> Bool)?
    private var hasCaseInsensitiveRoutes = false

    /// The error shape of paths no group owns (Vapor's, the rows app's framework).
    var defaultErrorShape: @Sendable (HTTPError) -> HTTPResponse = RouteGroup.vaporShape

    /// The body of the router's own answers (404, 405) in the shape of the group owning the path
    /// (its index in the groups, as `route` gave it; nil: the default shape); the status and the
    /// `Allow` header are set by the responder.
    func errorResponse(_ status: HTTPStatus, _ message: String, owner: Int?) -> HTTPResponse {
        let error = HTTPError(status, message)
        if let owner { return groups[owner].response(for: error) }
        return defaultErrorShape(error)
    }

    /// The owner the group at an index a match gave stands for (made once per group, so a
    /// request copies one value).
    func owner(ofGroup index: Int) -> RouteOwner { groupOwners[index] }

    /// Whether answers on `path` may carry CORS headers: its owner's choice. A path no group owns
    /// is refused when a group that refuses cross-origin reads would own it in another letter
    /// case or behind more leading slashes (`/__MOCK/reset`), so a near miss passes no preflight.
    func allowsCrossOrigin(owner: Int?, path: String) -> Bool {
        if let owner { return groups[owner].allowsCrossOrigin }
        var trimmed = Substring(path)
        while trimmed.hasPrefix("//") { trimmed = trimmed.dropFirst() }
        let lenient = String(trimmed)
        return !groups.contains { group in
            guard !group.allowsCrossOrigin else { return false }
            var anyCase = group
            anyCase.caseInsensitive = true
            return anyCase.owns(lenient)
        }
    }

    package init() {}

    /// Adds routes through `body` as members of `group`.
    package mutating func group(_ group: RouteGroup, _ body: (inout Router) -> Void) {
        groups.append(group)
        groupOwners.append(RouteOwner(group: groups.count - 1, name: group.system, role: group.role))
        owners = PathOwners(groups: groups)
        let (outer, outerIndex) = (currentGroup, currentGroupIndex)
        currentGroup = group
        currentGroupIndex = groups.count - 1
        body(&self)
        currentGroup = outer
        currentGroupIndex = outerIndex
    }

    /// Adds routes through `body` as members of `group`, each HTTP handler inside `around` and each
    /// WebSocket handshake checked by `admit` (unless the endpoint brings its own): a guard applied
    /// once to the whole group, so no route added inside can be left out of it.
    package mutating func group(_ group: RouteGroup, around: @escaping @Sendable (@escaping HTTPHandler) -> HTTPHandler,
                               admit: @escaping @Sendable (HTTPRequest, RequestContext) -> Bool, _ body: (inout Router) -> Void) {
        let (outerAround, outerAdmit) = (currentAround, currentAdmit)
        currentAround = around
        currentAdmit = admit
        self.group(group, body)
        currentAround = outerAround
        currentAdmit = outerAdmit
    }

    package mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ThrowingHTTPHandler) {
        add(method, pattern, wrapped: Router.wrap(handler, group: currentGroup, defaultShape: defaultErrorShape))
    }

    /// A route whose handler reads the request's context.
    package mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ContextualHTTPHandler) {
        add(method, pattern, wrapped: Router.wrap(handler, group: currentGroup, defaultShape: defaultErrorShape))
    }

    private mutating func add(_ method: HTTPMethod, _ pattern: String, wrapped handler: @escaping HTTPHandler) {
        let group = currentGroup
        let caseInsensitive = group?.caseInsensitive ?? false
        let compiled = RoutePattern(caseInsensitive ? pattern.lowercased() : pattern)
        let index = routes.count
        var wrapped = handler
        if let around = currentAround { wrapped = around(wrapped) }
        routes.append(Route(method: method, compiled: compiled, caseInsensitive: caseInsensitive,
                            exclusivePath: compiled.names.isEmpty && (group?.staticPathsAreExclusive ?? false),
                            handler: wrapped, group: currentGroupIndex, pattern: pattern))
        hasCaseInsensitiveRoutes = hasCaseInsensitiveRoutes || caseInsensitive
        let count = compiled.pieces.count
        if compiled.names.isEmpty {
            while staticBySegments.count <= count { staticBySegments.append(Array(repeating: [], count: Router.lengthBuckets)) }
            let length = compiled.literals.count
            staticBySegments[count][min(length, Router.lengthBuckets - 1)].append(StaticEntry(route: index, length: length))
        } else {
            while parameterisedBySegments.count <= count { parameterisedBySegments.append([]) }
            parameterisedBySegments[count].append(index)
        }
    }

    /// One error path: a thrown `HTTPError` becomes the group's body shape (the default shape
    /// outside any group).
    private static func wrap(_ handler: @escaping ContextualHTTPHandler, group: RouteGroup?,
                             defaultShape: @escaping @Sendable (HTTPError) -> HTTPResponse) -> HTTPHandler {
        guard let group else {
            return { request, context in
                do throws(HTTPError) { return try handler(request, &context) } catch {
                    return RouteGroup.response(for: error, shape: defaultShape)
                }
            }
        }
        return { request, context in
            do throws(HTTPError) { return try handler(request, &context) } catch {
                return group.response(for: error)
            }
        }
    }

    /// `wrap` for a handler that does not read the context: called directly, not through an
    /// adapter closure, so such a route costs no extra call.
    private static func wrap(_ handler: @escaping ThrowingHTTPHandler, group: RouteGroup?,
                             defaultShape: @escaping @Sendable (HTTPError) -> HTTPResponse) -> HTTPHandler {
        guard let group else {
            return { request, _ in
                do throws(HTTPError) { return try handler(request) } catch {
                    return RouteGroup.response(for: error, shape: defaultShape)
                }
            }
        }
        return { request, _ in
            do throws(HTTPError) { return try handler(request) } catch {
                return group.response(for: error)
            }
        }
    }

    package mutating func get(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.get, pattern, handler) }
    package mutating func post(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.post, pattern, handler) }
    package mutating func put(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.put, pattern, handler) }
    package mutating func delete(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.delete, pattern, handler) }
    package mutating func get(_ pattern: String, _ handler: @escaping ContextualHTTPHandler) { add(.get, pattern, handler) }
    package mutating func post(_ pattern: String, _ handler: @escaping ContextualHTTPHandler) { add(.post, pattern, handler) }
    package mutating func put(_ pattern: String, _ handler: @escaping ContextualHTTPHandler) { add(.put, pattern, handler) }
    package mutating func delete(_ pattern: String, _ handler: @escaping ContextualHTTPHandler) { add(.delete, pattern, handler) }

    /// A WebSocket endpoint: a GET with a valid upgrade handshake on this path is handed to `handler`.
    /// A handshake `admit` refuses is routed as a plain request (so an HTTP route on the same
    /// path can say why).
    package mutating func webSocket(_ pattern: String, admit: (@Sendable (HTTPRequest, RequestContext) -> Bool)? = nil,
                                   _ handler: @escaping WebSocketMessageHandler) {
        webSocket(pattern, admit: admit, WebSocketEndpoint(handler))
    }

    /// A WebSocket endpoint with open/close callbacks and a connection handle (push, delayed replies, close codes).
    package mutating func webSocket(_ pattern: String, admit: (@Sendable (HTTPRequest, RequestContext) -> Bool)? = nil,
                                   _ endpoint: WebSocketEndpoint) {
        socketRoutes.append(SocketRoute(compiled: RoutePattern(pattern), admit: admit ?? currentAdmit, handler: endpoint, pattern: pattern))
    }

    /// Every registered route as registered (`method` nil for a WebSocket endpoint), for
    /// documents and tests that must not drift from the table.
    package var routeTable: [(method: HTTPMethod?, pattern: String)] {
        routes.map { ($0.method, $0.pattern) } + socketRoutes.map { (nil, $0.pattern) }
    }

    /// Finds the handler for a request and fills in the context's path parameters and owner.
    /// `HEAD` falls back to the `GET` route; WebSocket routes match only upgrade requests.
    package func match(_ request: HTTPRequest, context: inout RequestContext, isUpgrade: Bool = false) -> RouteMatch {
        let (found, parameters, owner) = route(request, &context, isUpgrade: isUpgrade)
        if let parameters { context.pathParameters = parameters }
        context.owner = owner.map { groupOwners[$0] }
        return found
    }

    /// `match` without writing to the context: the matched route's parameters (nil when no route
    /// answers) and the index of the group owning the path come back beside the answer, so the
    /// responder sets only what a route has. The owner is the matched route's group, else the
    /// first group whose prefixes hold the path: decided here, once per request.
    func route(_ request: HTTPRequest, _ context: inout RequestContext, isUpgrade: Bool = false) -> (RouteMatch, PathParameters?, Int?) {
        var path = request.path
        return path.withUTF8 { path in
            let (found, parameters, group) = route(request, &context, path, isUpgrade: isUpgrade)
            return (found, parameters, group ?? owners.owner(path))
        }
    }

    private func route(_ request: HTTPRequest, _ context: inout RequestContext, _ path: UnsafeBufferPointer<UInt8>,
                       isUpgrade: Bool) -> (RouteMatch, PathParameters?, Int?) {
        // One pass for what decides which routes may match: the segment count and the bytes in
        // the segments.
        var count = 0, length = 0
        var cursor = SegmentCursor(path)
        while let segment = cursor.next() {
            count += 1
            length += segment.count
        }
        if isUpgrade && request.method == .get {
            for route in socketRoutes where route.compiled.pieces.count == count && route.compiled.matches(path, foldCase: false) {
                if route.admit?(request, context) ?? true {
                    return (.webSocket(route.handler), route.compiled.bind(path), nil)
                }
            }
        }
        var allowed: [HTTPMethod] = []
        var headFallback: Int?
        var exact: Int?
        // The first route whose path matched: its group owns the path when the method does not.
        var pathRoute: Int?
        // One rule for static and parameterised routes: the method decides, HEAD may use GET,
        // and every other method on the path is remembered for 405's Allow.
        func consider(_ index: Int) {
            let method = routes[index].method
            if method == request.method { exact = index; return }
            if pathRoute == nil { pathRoute = index }
            if request.method == .head && method == .get && headFallback == nil { headFallback = index }
            if !allowed.contains(method) { allowed.append(method) }
        }
        // Static routes match the path with its empty segments dropped (`/a//b/` is `/a/b`), and
        // only a path that starts with a slash.
        // Whether a static route spelling the path keeps it to itself (`RouteGroup.staticPathsAreExclusive`).
        var exclusive = false
        if count < staticBySegments.count && path.first == UInt8(ascii: "/") {
            let candidates = staticBySegments[count][min(length, Router.lengthBuckets - 1)]
            var found = false
            for entry in candidates where entry.length == length && routes[entry.route].compiled.matches(path, foldCase: false) {
                found = true
                exclusive = exclusive || routes[entry.route].exclusivePath
                consider(entry.route)
                if exact != nil { break }
            }
            // Case-insensitive groups' patterns are lower-cased; only their routes may match that
            // way, and only a path with an upper-case letter can differ.
            if !found && hasCaseInsensitiveRoutes && path.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
                for entry in candidates where entry.length == length && routes[entry.route].caseInsensitive
                    && routes[entry.route].compiled.matches(path, foldCase: true) {
                    exclusive = exclusive || routes[entry.route].exclusivePath
                    consider(entry.route)
                    if exact != nil { break }
                }
            }
        }
        if exact == nil && !exclusive && count < parameterisedBySegments.count {
            for index in parameterisedBySegments[count]
            where routes[index].compiled.matches(path, foldCase: routes[index].caseInsensitive) {
                consider(index)
                if exact != nil { break }
            }
        }
        if let index = exact ?? headFallback {
            return (.http(routes[index].handler), routes[index].compiled.bind(path), routes[index].group)
        }
        for route in socketRoutes where route.compiled.pieces.count == count && route.compiled.matches(path, foldCase: false) {
            if !allowed.contains(.get) { allowed.append(.get) }
        }
        if allowed.isEmpty { return (.notFound, nil, nil) }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        allowed.append(.options)
        return (.methodNotAllowed(allowed: allowed), nil, pathRoute.flatMap { routes[$0].group })
    }

    /// The methods a path accepts (for `OPTIONS` and CORS preflight); empty for unknown paths.
    /// It is the `Allow` list `match` builds for a 405, asked with a method no route registers.
    package func allowedMethods(forPath path: String) -> [HTTPMethod] {
        var context = RequestContext(arrivedAt: 0)  // a question, not a request: no clock read
        if case .methodNotAllowed(let allowed) = match(HTTPRequest(method: .options, target: path), context: &context) { return allowed }
        return []
    }
}
