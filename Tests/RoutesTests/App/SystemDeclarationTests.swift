import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// What systems declare (names, summaries, endpoints, route groups) and what the router makes of it.
final class SystemDeclarationTests: MockServerTestCase {
    func testEverySystemDeclaresItsNameSummaryAndEndpoints() {
        // API.md's five names, first and in its order; a system added later comes after them.
        XCTAssertEqual(server.app.systems.map(\.name), SystemRegistry.names)
        XCTAssertEqual(Array(SystemRegistry.names.prefix(5)), ["rows", "gateway", "skyzone", "musbooking", "rsschool"])
        for system in server.app.systems {
            XCTAssertFalse(system.summary.isEmpty, system.name)
            XCTAssertFalse(system.endpoints.isEmpty, system.name)
            for endpoint in system.endpoints {
                XCTAssertTrue(system.routeGroup.owns(endpoint.path), "\(system.name) declares \(endpoint.path) outside its prefixes")
            }
        }
        XCTAssertTrue(server.app.system(named: "musbooking")?.endpoints.contains { $0.path == "/api/users/sms" } ?? false)
        XCTAssertEqual(server.app.systems.prefix(5).map(\.seedAccount), ["johndown@exmample.com / 1234567", "fpi@bk.ru / 123123",
                                                               "skyzonecustomer@gmail.com / password1", "Test005 / 123456",
                                                               "username / password, then 132"])
    }

    /// The banner's endpoints are routes the router really has (`WS` a WebSocket endpoint), each in
    /// its system's group: the list may leave routes out, never name one that does not exist.
    func testEveryDeclaredEndpointIsARegisteredRoute() {
        let table = server.app.makeRouter().routeTable
        for system in server.app.systems {
            for endpoint in system.endpoints {
                let method = endpoint.method == "WS" ? nil : HTTPMethod(rawValue: endpoint.method)
                XCTAssertTrue(table.contains { $0.method == method && $0.pattern == endpoint.path },
                              "\(system.name) declares \(endpoint.method) \(endpoint.path), which no route answers")
            }
        }
    }

    /// Every answer names its system (never sent on the wire), 404 and 405 included.
    func testEveryResponseCarriesItsSystem() {
        func system(_ method: HTTPMethod, _ target: String, _ headers: HTTPHeaders = [:], body: String = "") -> String? {
            server.responder.respond(to: HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))).system
        }
        XCTAssertEqual(system(.get, "/rows/1"), "rows")
        XCTAssertEqual(system(.post, "/auth/login", ["Content-Type": "application/json"], body: "{}"), "rows")
        XCTAssertEqual(system(.get, "/customer"), "skyzone")
        XCTAssertEqual(system(.post, "/tokens"), "skyzone")
        XCTAssertEqual(system(.post, "/api/users/sms"), "musbooking")
        XCTAssertEqual(system(.get, "/api/nothing-here"), "musbooking")
        XCTAssertEqual(system(.delete, "/api/users/sms"), "musbooking")
        XCTAssertEqual(system(.post, "/rsschool/secure"), "rsschool")
        XCTAssertEqual(system(.get, "/customer-gateway/other"), "gateway")
        XCTAssertEqual(system(.get, "/__mock/health"), "admin")
        XCTAssertNil(system(.get, "/nobody-owns-this"))
    }

    func testNotFoundAndMethodNotAllowedTakeTheOwningSystemsShape() throws {
        let mus = try server.request("GET", "/API/Nothing")
        XCTAssertEqual(mus.status, 404)
        XCTAssertEqual(mus.header("Content-Type"), "text/plain; charset=utf-8")
        let sky = try server.request("DELETE", "/customer")
        XCTAssertEqual(sky.status, 405)
        XCTAssertNotNil(sky.jsonObject?["error"] as? String, sky.text)
        let rows = try server.request("GET", "/rows")
        XCTAssertEqual(rows.status, 404)
        XCTAssertEqual(rows.jsonObject?["error"] as? Bool, true, rows.text)
    }
}

/// Route groups as pure units: letter case, shapes, the one error path.
final class RouteGroupTests: XCTestCase {
    private func router() -> Router {
        var router = Router()
        let text = RouteGroup(system: "aspnet", prefixes: ["/api"], caseInsensitive: true) { .text($0.status, $0.message) }
        router.group(text) { r in
            r.get("/api/users/user") { _ in .text(.ok, "user") }
            r.get("/api/items/:id") { request in .text(.ok, request.pathParameters["id"] ?? "") }
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
        XCTAssertEqual(r.system, "aspnet")
    }

    func testRouterAnswersUseTheOwningGroupsShape() {
        let missing = respond(.get, "/api/none")
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertEqual(missing.headers["Content-Type"], "text/plain; charset=utf-8")
        XCTAssertEqual(missing.system, "aspnet")
        let wrongMethod = respond(.delete, "/API/USERS/user")
        XCTAssertEqual(wrongMethod.status, .methodNotAllowed)
        XCTAssertEqual(wrongMethod.headers["Allow"], "GET, HEAD, OPTIONS")
        XCTAssertEqual(wrongMethod.headers["Content-Type"], "text/plain; charset=utf-8")
        let elsewhere = respond(.get, "/apix")
        XCTAssertEqual(elsewhere.headers["Content-Type"], "application/json; charset=utf-8", "a prefix owns whole segments only")
    }
}
