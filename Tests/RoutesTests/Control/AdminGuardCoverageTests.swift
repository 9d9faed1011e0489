import HTTPServer
import MockTestSupport
@testable import Routes
import MockControl
import TestSupport
import XCTest

/// The admin guard is applied once, to the admin group (`MockApp.makeRouter`): walking the router's
/// table proves that every `/__mock` and `/__admin` (stubs) route but health refuses a page reaching the server under a
/// foreign name, and that every state-changing one refuses a simple cross-site write. A route
/// added later inside the group is covered, with no test to update.
final class AdminGuardCoverageTests: MockServerTestCase {
    /// Every admin route with its parameters filled in; `method` nil for a WebSocket endpoint.
    private func adminRoutes() -> [(method: HTTPMethod?, path: String)] {
        server.app.makeRouter().routeTable
            .filter { $0.pattern.hasPrefix("/__mock") || $0.pattern.hasPrefix("/__admin") }
            .map { route in
                let path = "/" + route.pattern.split(separator: "/").map { $0.hasPrefix(":") ? "x" : String($0) }.joined(separator: "/")
                return (route.method, path)
            }
    }

    private func send(_ method: String, _ path: String, _ headers: [(String, String)]) throws -> TestResponse {
        let client = try TestHTTPClient(port: server.port)
        try client.sendRequest(method, path, headers: headers)
        return try client.readResponse(head: method == "HEAD")
    }

    func testEveryAdminRouteButHealthRefusesAForeignHost() throws {
        let routes = adminRoutes()
        XCTAssertGreaterThan(routes.count, 30, "the walk sees the admin table")
        var open: [String] = []
        for route in routes {
            let method = route.method?.rawValue ?? "GET"
            var headers = [("Host", "evil.example"), ("X-Mock-Admin", "1")]
            if route.method == nil {
                headers += [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]
            }
            let response = try send(method, route.path, headers)
            if response.status != 403 { open.append("\(method) \(route.path): \(response.status)") }
        }
        XCTAssertEqual(open, ["GET /__mock/health: 200"], "only health answers a page that reached the server as evil.example")
    }

    func testEveryAdminWriteRefusesABrowsersCrossSiteRequest() throws {
        var open: [String] = []
        for route in adminRoutes() {
            guard let method = route.method, method != .get, method != .head, method != .options else { continue }
            // What a cross-site form sends: a form body, and the marks a browser adds to it.
            for mark in [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")] {
                let response = try send(method.rawValue, route.path, [("Host", "127.0.0.1:\(server.port)"),
                                                                    ("Content-Type", "application/x-www-form-urlencoded"), mark])
                if response.status != 403 { open.append("\(method.rawValue) \(route.path) \(mark.0): \(response.status)") }
            }
        }
        XCTAssertEqual(open, [], "every state-changing admin route refuses a browser's cross-site write")
    }

    /// The table says where each route stands: only health and the console page (whose token
    /// login comes first) stand before the guard, and only `/` is outside the admin group.
    func testOnlyHealthAndTheConsolePageStandBeforeTheGuard() {
        let routes = server.app.adminRoutes
        let outside = routes.filter { $0.door != .guarded }.map { "\($0.door) \($0.method.rawValue) \($0.path)" }
        XCTAssertEqual(outside.sorted(), ["open GET /__mock", "open GET /__mock/health", "root GET /"])
        XCTAssertEqual(Set(routes.map(\.operationKey)).count, routes.count, "one entry per method and path")
    }
}
