import Foundation
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
import XCTest

/// One rule of which system a path belongs to (API.md §6.1): a fault's `system`, the journal's
/// `system`, the token controls and the log line agree for every route and for the edges where
/// two rules once disagreed (`/rows`, `/auth/x`, `/ROWS/1`).
final class PathOwnershipTests: XCTestCase {
    /// Paths around the prefixes: whole segments, letter case, lookalikes, no owner at all.
    private static let edges = [
        "/rows", "/auth/x", "/ROWS/1", "/api/Users/SMS", "/customer-gateway/customer",
        "/API/users/sms", "/auth/login/", "/customer-gateway", "/customer-gatewayX", "/Customer/x",
        "/tokensX", "/rsschool", "/favicon.ico", "/", "/é/rows/",
    ]

    /// Every route's pattern as a concrete path (`:page` → `7`), then the edges.
    private func paths(_ app: MockApp) -> [String] {
        let routes = app.makeRouter().routeTable.map { route in
            "/" + route.pattern.split(separator: "/").map { $0.hasPrefix(":") ? "7" : String($0) }.joined(separator: "/")
        }
        return routes + PathOwnershipTests.edges
    }

    /// What the router words its 404 by: the first registered group that owns the path.
    private func groupOwner(_ app: MockApp, _ path: String) -> String? {
        (app.systems.map(\.routeGroup) + [MockAdmin.routeGroup]).first { $0.owns(path) }?.system
    }

    func testTheTableAgreesWithTheRouteGroupsAndTheRoutersOwnAnswers() throws {
        let server = try TestServer()
        let router = server.app.makeRouter()
        for path in paths(server.app) {
            let expected = groupOwner(server.app, path)
            XCTAssertEqual(server.app.control.owners.name(ofPath: path), expected, path)
            var context = RequestContext()
            _ = router.match(HTTPRequest(method: .get, target: path), context: &context)
            XCTAssertEqual(context.system, expected, path)
        }
        XCTAssertEqual(server.app.control.owners.name(ofPath: "/rows"), "rows")
        XCTAssertEqual(server.app.control.owners.name(ofPath: "/auth/x"), "rows")
        XCTAssertNil(server.app.control.owners.name(ofPath: "/ROWS/1"), "Vapor's routes match in one letter case")
        XCTAssertEqual(server.app.control.owners.name(ofPath: "/api/Users/SMS"), "musbooking", "ASP.NET's match in any")
        XCTAssertEqual(server.app.control.owners.name(ofPath: "/customer-gateway/customer"), "gateway")
        XCTAssertNil(server.app.control.owners.name(ofPath: "/customer-gatewayX"))
        XCTAssertNil(server.app.control.owners.name(ofPath: ""))
    }

    func testFaultsJournalTokenControlsAndLogsNameTheSameSystem() throws {
        let lines = Locked<[String]>([])
        let logger = Logger(level: .info, format: .json) { line in lines.withLock { $0.append(line) } }
        let server = try TestServer(logger: logger)
        // One rule per system, each answering with its system's name: the rule that fires names
        // the system the fault filter gave the path.
        for name in SystemRegistry.names {
            _ = try server.addFault(["path": "/*", "system": name, "action": ["status": 418, "body": name]])
        }
        var expected: [String: String?] = [:]
        for path in paths(server.app) {
            let owner = groupOwner(server.app, path)
            // Admin paths are neither faulted nor journaled; the client sends bytes as they are.
            if owner == "admin" || !path.allSatisfy(\.isASCII) { continue }
            expected[path] = owner
            let r = try server.request("GET", path)
            if let owner {
                XCTAssertEqual(r.status, 418, "\(path): the \(owner) rule did not fire")
                XCTAssertEqual(r.text, owner, path)
                let control = try server.request("POST", "/__mock/tokens/expire", headers: TestServer.adminWrite, json: ["system": owner])
                XCTAssertEqual(control.status, 200, "\(path): token controls refuse \(owner): \(control.text)")
            } else {
                XCTAssertNotEqual(r.status, 418, "\(path): a system's rule fired on a path no system owns")
            }
            let latest = try server.journal().last
            XCTAssertEqual(latest?["path"] as? String, path)
            XCTAssertEqual(latest?["system"] as? String, owner, "journal of \(path)")
        }
        server.stop()
        let logged = lines.withLock { $0 }.compactMap { JSON.parseObject(Array($0.utf8)) }.filter { $0["kind"] as? String == "request" }
        for (path, owner) in expected {
            let line = logged.last { $0["path"] as? String == path && $0["method"] as? String == "GET" }
            XCTAssertNotNil(line, "no log line for \(path)")
            XCTAssertEqual(line?["system"] as? String, owner, "log of \(path)")
        }
    }
}
