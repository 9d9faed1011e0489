import XCTest
@testable import HTTPServer

/// Matching on the path's bytes: letter case per group, empty segments, parameters.
final class RouterMatchingTests: XCTestCase {
    private func answer(_ router: Router, _ method: HTTPMethod, _ target: String) -> String? {
        let request = HTTPRequest(method: method, target: target)
        var context = RequestContext()
        guard case .http(let handler) = router.match(request, context: &context) else { return nil }
        return String(decoding: handler(request, &context).body, as: UTF8.self)
    }

    private func router() -> Router {
        var router = Router()
        router.group(RouteGroup(system: "aspnet", prefixes: ["/api"], caseInsensitive: true)) { r in
            r.get("/api/Users/user") { _ in .text(.ok, "user") }
            r.get("/api/categories/:id") { _, c in .text(.ok, "category " + (c.pathParameters["id"] ?? "-")) }
        }
        router.group(RouteGroup(system: "vapor", prefixes: ["/rows"])) { r in
            r.get("/rows/:page") { _, c in .text(.ok, "page " + (c.pathParameters["page"] ?? "-")) }
            r.get("/rows/a/:x/b/:y") { _, c in .text(.ok, (c.pathParameters["x"] ?? "-") + "," + (c.pathParameters["y"] ?? "-")) }
        }
        router.get("/") { _ in .text(.ok, "root") }
        return router
    }

    func testCaseInsensitiveGroupsMatchAnyCaseAndOthersOnlyTheirOwn() {
        let router = router()
        XCTAssertEqual(answer(router, .get, "/api/users/user"), "user")
        XCTAssertEqual(answer(router, .get, "/API/USERS/User/"), "user")
        XCTAssertEqual(answer(router, .get, "//Api//Categories/Ab%20C"), "category Ab C")
        XCTAssertEqual(answer(router, .get, "/rows/7"), "page 7")
        XCTAssertNil(answer(router, .get, "/Rows/7"))
        XCTAssertNil(answer(router, .get, "/api/users/use"))
        XCTAssertNil(answer(router, .get, "/api/users/userx"))
    }

    func testParametersAreDecodedAndNamed() {
        let router = router()
        XCTAssertEqual(answer(router, .get, "/rows/a/1/b/%D0%96"), "1,Ж")
        XCTAssertEqual(answer(router, .head, "/rows/a/x%2Fy/b/2"), "x/y,2")
        XCTAssertEqual(answer(router, .get, "/rows/100%"), "page 100%")
        XCTAssertNil(answer(router, .get, "/rows/a/1/c/2"))
    }

    func testTheRootAndPathsWithoutALeadingSlash() {
        let router = router()
        XCTAssertEqual(answer(router, .get, "/"), "root")
        XCTAssertEqual(answer(router, .get, "//"), "root")
        XCTAssertNil(answer(router, .get, ""))
        // A static route wants the leading slash; a parameterised one matches segments only.
        let request = HTTPRequest(method: .get, target: "api/users/user")
        var context = RequestContext()
        guard case .notFound = router.match(request, context: &context) else { return XCTFail("a static route matched without the slash") }
        XCTAssertEqual(answer(router, .get, "rows/3"), "page 3")
    }

    func testMethodNotAllowedListsEveryMethodOnThePath() {
        var router = router()
        router.post("/rows/:page") { _ in .text(.ok, "post") }
        router.webSocket("/rows/socket") { _ in [] }
        let put = HTTPRequest(method: .put, target: "/rows/socket")
        var context = RequestContext()
        guard case .methodNotAllowed(let allowed) = router.match(put, context: &context) else { return XCTFail("405 expected") }
        XCTAssertEqual(allowed, [.get, .post, .head, .options])
        XCTAssertEqual(router.allowedMethods(forPath: "/API/users/user"), [.get, .head, .options])
        XCTAssertEqual(router.allowedMethods(forPath: "/nowhere"), [])
    }

    func testAGroupWithExclusiveStaticPathsKeepsAStaticPathToItsRoute() {
        var router = Router()
        router.group(RouteGroup(system: "admin", prefixes: ["/mappings"], staticPathsAreExclusive: true)) { r in
            r.post("/mappings/save") { _ in .text(.ok, "save") }
            r.get("/mappings/:id") { _, c in .text(.ok, "mapping " + (c.pathParameters["id"] ?? "-")) }
            r.delete("/mappings/:id") { _ in .text(.ok, "deleted") }
        }
        XCTAssertEqual(answer(router, .post, "/mappings/save"), "save")
        XCTAssertEqual(answer(router, .get, "/mappings/abc"), "mapping abc")
        // Not GET /mappings/:id with the id "save": the methods on the path are the static route's.
        let get = HTTPRequest(method: .get, target: "/mappings/save")
        var context = RequestContext()
        guard case .methodNotAllowed(let allowed) = router.match(get, context: &context) else { return XCTFail("405 expected") }
        XCTAssertEqual(allowed, [.post, .options])
        XCTAssertEqual(router.allowedMethods(forPath: "/mappings/save"), [.post, .options])
        XCTAssertEqual(router.allowedMethods(forPath: "/mappings/abc"), [.get, .delete, .head, .options])
    }

    func testPathParametersReadLikeADictionary() {
        let parameters: PathParameters = ["id": "7", "page": "2"]
        XCTAssertEqual(parameters["id"], "7")
        XCTAssertNil(parameters["ID"])
        XCTAssertEqual(parameters.count, 2)
        XCTAssertTrue(PathParameters().isEmpty)
        // As a dictionary built in order would: a repeated name gives its last value.
        let repeated = PathParameters([(name: "id", value: "1"), (name: "x", value: "2"), (name: "id", value: "3")])
        XCTAssertEqual(repeated["id"], "3")
        XCTAssertEqual(repeated["x"], "2")
        XCTAssertEqual(repeated.map(\.value), ["1", "2", "3"])
    }
}
