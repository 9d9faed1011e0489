import HTTPServer
import EmulationKit
import MockAdminWire

/// One route of the mock's own surface (`/__mock`, `/__admin`, `/`): what the router registers and
/// what the OpenAPI document says of it, in one entry, so neither can be written without the other.
package struct AdminRoute: Sendable {
    /// Where the route stands relative to the admin guard.
    package enum Door: Sendable {
        /// Inside the admin group, behind the guard the group applies once.
        case guarded
        /// In the admin group, before the guard: health, and the console page (its token login
        /// comes first; the page guards itself).
        case open
        /// Outside every group: `/`, which belongs to no system.
        case root
    }

    package let method: HTTPMethod
    /// The router's pattern (`:name` segments).
    package let path: String
    package let door: Door
    /// The OpenAPI operation, complete but for what `OpenAPIDocument.completed` adds. Described
    /// when the document is first asked for, not when the table is made: a server that never
    /// serves it never holds its hundred-odd operations.
    package var operation: OAS.Object { describe() }
    fileprivate let describe: @Sendable () -> OAS.Object
    /// Made on the route's first request, not when the table is made: a handler is a getter of
    /// its area's (Stubs, the control plane), and reading a hundred of them at start kept pages of
    /// those areas' code resident in a server that never serves them.
    package let handler: HTTPHandler
    /// A WebSocket endpoint on the same path; a plain GET (or a refused handshake) gets `handler`.
    package let webSocket: WebSocketEndpoint?

    /// An operation tagged `tag` with `summary` and `responses`. A route behind the guard (or
    /// `refusable`) documents its 403; a state-changing `/__mock` route documents the write
    /// refusal and the `X-Mock-Admin` header it needs without a JSON body.
    package init(_ method: HTTPMethod, _ path: String, door: Door = .guarded, tag: String = "admin", _ summary: String,
                 _ responses: @autoclosure @escaping @Sendable () -> OAS.Object, body: @autoclosure @escaping @Sendable () -> OAS.Object? = nil,
                 parameters: @autoclosure @escaping @Sendable () -> [OAS.Object]? = nil, description: String? = nil,
                 refusable: Bool? = nil, webSocket: WebSocketEndpoint? = nil, handler: @autoclosure @escaping @Sendable () -> HTTPHandler) {
        let refused = refusable ?? (door == .guarded)
        describe = {
            var all = responses()
            if refused { all.set("403", OAS.adminForbidden) }
            var op: OAS.Object = ["tags": [.string(tag)], "summary": .string(summary), "responses": all]
            if let body = body() { op.set("requestBody", body) }
            if let parameters = parameters() { op.set("parameters", .array(parameters)) }
            if let description { op.set("description", .string(description)) }
            if method != .get && path.hasPrefix("/__mock") { OAS.markStateChanging(&op) }
            return op
        }
        self.method = method
        self.path = path
        self.door = door
        let made = LazyHandler(handler)
        self.handler = { request, context in made.handler(request, &context) }
        self.webSocket = webSocket
    }

    /// An operation the admin client calls (`MockAdminRoute`), on the method and pattern the
    /// client and this table share; the rest as the initializer above.
    package init(_ route: MockAdminRoute, door: Door = .guarded, tag: String = "admin", _ summary: String,
                 _ responses: @autoclosure @escaping @Sendable () -> OAS.Object, body: @autoclosure @escaping @Sendable () -> OAS.Object? = nil,
                 parameters: @autoclosure @escaping @Sendable () -> [OAS.Object]? = nil, description: String? = nil,
                 refusable: Bool? = nil, webSocket: WebSocketEndpoint? = nil, handler: @autoclosure @escaping @Sendable () -> HTTPHandler) {
        self.init(HTTPMethod(route.method), route.pattern, door: door, tag: tag, summary, responses(), body: body(), parameters: parameters(),
                  description: description, refusable: refusable, webSocket: webSocket, handler: handler())
    }

    /// The document's key: `METHOD /path/{param}`.
    package var operationKey: String { "\(method.rawValue) \(OpenAPIDocument.openAPIPath(path))" }
}

/// A route's handler, made once by its first request.
private final class LazyHandler: Sendable {
    private let make: @Sendable () -> HTTPHandler
    private let made = Locked<Boxed<HTTPHandler>?>(nil)

    init(_ make: @escaping @Sendable () -> HTTPHandler) { self.make = make }

    var handler: HTTPHandler {
        made.withLock { made in
            if let made { return made.value }
            let handler = make()
            made = Boxed(handler)
            return handler
        }
    }
}

/// What the OpenAPI document needs of the admin table: each route's key and how to describe its
/// operation, without the handlers. The document is built lazily by a closure one of those
/// handlers holds, so keeping the routes themselves for it would be a reference cycle.
package struct AdminOperations: Sendable {
    private let described: [(key: String, describe: @Sendable () -> OAS.Object)]

    package init(_ routes: [AdminRoute]) { described = routes.map { ($0.operationKey, $0.describe) } }

    /// The operations, keyed as the document looks them up (the first route of a key wins).
    package var operations: [String: OAS.Object] {
        Dictionary(described.map { ($0.key, $0.describe()) }) { first, _ in first }
    }
}

extension Router {
    /// Registers `route` (and its WebSocket endpoint) in the group being built.
    package mutating func add(_ route: AdminRoute) {
        if let endpoint = route.webSocket { webSocket(route.path, endpoint) }
        add(route.method, route.path, route.handler)
    }
}
