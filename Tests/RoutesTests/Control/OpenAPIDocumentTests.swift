import Foundation
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
import XCTest
@testable import EmulationKit
@testable import MockControl

/// The OpenAPI document cannot drift from the route table: the same routes, both ways. The admin
/// routes are documented by the table they are registered from (`MockAdmin.routes`); a system's
/// documentation is its own list.
final class OpenAPIDocumentTests: MockServerTestCase {
    func testEveryRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let table = server.app.makeRouter().routeTable
        let registered = Set(table.compactMap { route in route.method.map { "\($0.rawValue) \(OpenAPIDocument.openAPIPath(route.pattern))" } })
        let documented = Set(OAS.systemOperations.keys)
        XCTAssertEqual(documented.subtracting(registered).sorted(), [], "documented system routes nobody registers")

        let r = try server.request("GET", "/__mock/openapi.json")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        let doc = try XCTUnwrap(r.jsonObject)
        XCTAssertEqual(doc["openapi"] as? String, "3.1.0")
        let paths = try XCTUnwrap(doc["paths"] as? [String: [String: Any]])
        var served = Set<String>()
        for (path, methods) in paths {
            for (method, operation) in methods {
                served.insert("\(method.uppercased()) \(path)")
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any]
                XCTAssertFalse(responses?.isEmpty ?? true, "\(method) \(path) documents no response")
                XCTAssertNil(responses?["default"], "\(method) \(path) is undocumented")
            }
        }
        XCTAssertEqual(served, registered)
        let description = ((doc["info"] as? [String: Any])?["description"] as? String) ?? ""
        for route in table where route.method == nil {
            XCTAssertTrue(description.contains(route.pattern), "WebSocket \(route.pattern) is not described")
        }
        // Every $ref points at a schema that exists.
        let schemas = Set(((doc["components"] as? [String: Any])?["schemas"] as? [String: Any])?.keys.map { $0 } ?? [])
        let refs = Set(r.text.components(separatedBy: "#/components/schemas/").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) })
        XCTAssertEqual(refs.subtracting(schemas).sorted(), [])
    }
}
