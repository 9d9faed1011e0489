import HTTPServer
import XCTest

/// Route groups as pure units: letter case, shapes, the one error path.
final class RouteGroupTests: XCTestCase {
    private func router() -> Router {
        var router = Router()
        let text = RouteGroup(system: "aspnet", prefixes: ["/api"], caseInsensitive: true) { .text($0.status, $0.message) }
        router.group(text) { r in
            r.get("/api/users/user") { _ in .text(.ok, "user") }
            r.get("/api/items/:id") { request, context in .text(.ok, context.pathParameters["id"] ?? "") }
            r.post("/api/fail") { _ throws(HTTPError) in throw HTTPError(.badRequest, "bad", hint: "Fix it.") }
        }
        router.group(RouteGroup(system: "vapor", prefixes: ["/rows"])) { r in
            r.get("/rows/:page") { _ in .text(.ok, "rows") }
        }
        return router
    }

    private func respond(_ method: HTTPMethod, _ target: String) -> HTTPResponse {
        Responder(router: router()).respond(to: HTTPRequest(method: method, target: target))
    }

    /// The system the responder names in the request's context.
    private func owner(_ method: HTTPMethod, _ target: String) -> String? {
        var context = RequestContext()
        _ = Responder(router: router()).respond(to: HTTPRequest(method: method, target: target), in: &context)
        return context.system
    }

    func testCaseInsensitiveGroupsMatchAnyLetterCaseOthersDoNot() {
        XCTAssertEqual(respond(.get, "/API/Users/USER").body, Array("user".utf8))
        XCTAssertEqual(respond(.get, "/api/users/user").status, .ok)
        XCTAssertEqual(respond(.get, "/Api/Items/AbC").body, Array("AbC".utf8), "parameters keep their case")
        XCTAssertEqual(respond(.get, "/rows/1").status, .ok)
        XCTAssertEqual(respond(.get, "/ROWS/1").status, .notFound)
    }

    func testAThrownErrorTakesTheGroupsShapeHintAndSystem() {
        let r = respond(.post, "/API/fail")
        XCTAssertEqual(r.status, .badRequest)
        XCTAssertEqual(r.body, Array("bad".utf8))
        XCTAssertEqual(r.hint, "Fix it.")
        XCTAssertEqual(r.headers["X-Mock-Hint"], "Fix it.")
        XCTAssertEqual(owner(.post, "/API/fail"), "aspnet")
    }

    func testRouterAnswersUseTheOwningGroupsShape() {
        let missing = respond(.get, "/api/none")
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertEqual(missing.headers["Content-Type"], "text/plain; charset=utf-8")
        XCTAssertEqual(owner(.get, "/api/none"), "aspnet")
        let wrongMethod = respond(.delete, "/API/USERS/user")
        XCTAssertEqual(wrongMethod.status, .methodNotAllowed)
        XCTAssertEqual(wrongMethod.headers["Allow"], "GET, HEAD, OPTIONS")
        XCTAssertEqual(wrongMethod.headers["Content-Type"], "text/plain; charset=utf-8")
        let elsewhere = respond(.get, "/apix")
        XCTAssertEqual(elsewhere.headers["Content-Type"], "application/json; charset=utf-8", "a prefix owns whole segments only")
    }

    /// A stage that notes the owner it was given.
    private struct Seeing: Stage {
        let seen: Locked<[RouteOwner?]>
        func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                    _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
            seen.withLock { $0.append(context.owner) }
            return next(request, &context)
        }
    }

    func testTheOwnerIsDecidedOnceFromTheMatchedRoutesGroupBeforeTheStages() {
        var router = Router()
        router.group(RouteGroup(system: "rows", prefixes: ["/rows"])) { r in
            r.get("/rows/:page") { _ in .text(.ok, "rows") }
            r.get("/health") { _ in .text(.ok, "up") }
        }
        router.group(RouteGroup(system: "admin", prefixes: ["/__mock"], allowsCrossOrigin: false, role: .admin)) { r in
            r.post("/__mock/reset") { _ in .empty() }
        }
        router.get("/") { _ in .text(.ok, "root") }
        let seen = Locked<[RouteOwner?]>([])
        let stage = Seeing(seen: seen)
        let responder = Responder(router: router, pipeline: Pipeline(stage))
        func answer(_ method: HTTPMethod, _ target: String, _ headers: HTTPHeaders = HTTPHeaders()) -> (system: String?, response: HTTPResponse) {
            var context = RequestContext()
            let response = responder.respond(to: HTTPRequest(method: method, target: target, headers: headers), in: &context)
            XCTAssertEqual(seen.withLock { $0.removeLast() }, context.owner, "the stage saw the owner first")
            return (context.system, response)
        }
        XCTAssertEqual(answer(.get, "/rows/1").system, "rows")
        XCTAssertEqual(answer(.get, "/health").system, "rows", "the matched route's group, though its prefixes do not hold the path")
        XCTAssertEqual(answer(.delete, "/health").system, "rows", "405: the group of the routes on the path")
        XCTAssertEqual(answer(.options, "/health").system, "rows")
        XCTAssertEqual(answer(.get, "/rows/1/x").system, "rows", "no route: the first group whose prefixes hold the path")
        XCTAssertNil(answer(.get, "/").system, "a route in no group, on a path no group owns")
        XCTAssertNil(answer(.get, "/nothing").system)

        // CORS follows the owner: the admin group refuses it, near misses of its paths included.
        let origin: HTTPHeaders = ["Origin": "http://elsewhere.example", "Access-Control-Request-Method": "POST"]
        XCTAssertEqual(answer(.get, "/rows/1", origin).response.headers["Access-Control-Allow-Origin"], "http://elsewhere.example")
        XCTAssertEqual(answer(.options, "/health", origin).response.headers["Access-Control-Allow-Methods"], "POST")
        for path in ["/__mock/reset", "//__mock/reset", "/__MOCK/reset", "/__mock/none"] {
            let preflight = answer(.options, path, origin).response
            XCTAssertNil(preflight.headers["Access-Control-Allow-Origin"], path)
            XCTAssertNil(preflight.headers["Access-Control-Allow-Methods"], path)
        }
        XCTAssertEqual(answer(.post, "//__mock/reset", origin).system, "admin", "the route matched with its empty segments dropped")
    }
}
