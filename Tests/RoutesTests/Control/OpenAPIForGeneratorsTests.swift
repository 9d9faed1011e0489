import Foundation
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
import XCTest

/// What a client generator (swift-openapi-generator) needs of the served document: the rows
/// token as a security scheme, the `X-Mock-Admin` header where the admin guard wants it, and a
/// type on every schema.
final class OpenAPIForGeneratorsTests: MockServerTestCase {
    private func document() throws -> [String: Any] {
        try XCTUnwrap(try server.request("GET", "/__mock/openapi.json").jsonObject)
    }

    private func operation(_ doc: [String: Any], _ method: String, _ path: String) throws -> [String: Any] {
        try XCTUnwrap(((doc["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any], "\(method) \(path)")
    }

    func testTheRowsTokenIsAnAPIKeySchemeNotAHeaderParameter() throws {
        let doc = try document()
        let schemes = try XCTUnwrap((doc["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: Any]])
        let rows = try XCTUnwrap(schemes["rowsToken"])
        XCTAssertEqual(rows["type"] as? String, "apiKey")
        XCTAssertEqual(rows["in"] as? String, "header")
        XCTAssertEqual(rows["name"] as? String, "authorization")
        let page = try operation(doc, "get", "/rows/{page}")
        XCTAssertEqual(page["security"] as? [[String: [String]]], [["rowsToken": []]])
        let headers = (page["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "header" }
        XCTAssertTrue(headers.isEmpty, "a header parameter named authorization is ignored by generators")
    }

    func testEveryAdminWriteSaysInItsForbiddenWhatTheGuardRefusesAndNeedsNoHeader() throws {
        let doc = try document()
        let paths = try XCTUnwrap(doc["paths"] as? [String: [String: [String: Any]]])
        var writes = 0
        for (path, methods) in paths where path.hasPrefix("/__mock") {
            for (method, op) in methods where method != "get" {
                let forbidden = ((op["responses"] as? [String: Any])?["403"] as? [String: Any])?["description"] as? String ?? ""
                XCTAssertTrue(forbidden.contains("Sec-Fetch-Site: cross-site"), "\(method) \(path): \(forbidden)")
                let marker = (op["parameters"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "X-Mock-Admin" }
                XCTAssertNil(marker, "\(method) \(path) declares a header the guard no longer needs")
                writes += 1
            }
        }
        XCTAssertGreaterThan(writes, 12)
        // What the document promises is what the guard does: a plain client passes, a browser's cross-site write does not.
        XCTAssertEqual(try server.request("DELETE", "/__mock/requests").status, 204)
        XCTAssertEqual(try server.request("DELETE", "/__mock/requests", headers: [("Sec-Fetch-Site", "cross-site")]).status, 403)
        XCTAssertEqual(try server.request("DELETE", "/__mock/requests", headers: [("Origin", "http://evil.example")]).status, 403)
    }

    func testEverySchemaWithAConstantOrNoConstraintHasAType() throws {
        let doc = try document()
        var untyped: [String] = []
        func walk(_ value: Any, _ path: String, inExample: Bool) {
            if let object = value as? [String: Any] {
                if !inExample {
                    if object["const"] != nil && object["type"] == nil { untyped.append(path) }
                    if object.isEmpty { untyped.append(path) }
                }
                for (key, member) in object { walk(member, path + "/" + key, inExample: inExample || key == "example" || key == "examples") }
            } else if let array = value as? [Any] {
                for (i, element) in array.enumerated() { walk(element, path + "[\(i)]", inExample: inExample) }
            }
        }
        walk(doc, "", inExample: false)
        XCTAssertEqual(untyped, [])
    }

    func testEveryOperationHasAnOperationIdAndEveryRequestBodyAnExample() throws {
        let document = try XCTUnwrap(server.request("GET", "/__mock/openapi.json").jsonObject)
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        var ids: [String] = []
        for (path, operations) in paths {
            for (method, value) in operations {
                let operation = try XCTUnwrap(value as? [String: Any])
                let id = operation["operationId"] as? String ?? ""
                XCTAssertFalse(id.isEmpty, "\(method) \(path)")
                ids.append(id)
                let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
                for (type, media) in content {
                    XCTAssertNotNil((media as? [String: Any])?["example"], "\(method) \(path) \(type)")
                }
            }
        }
        XCTAssertEqual(Set(ids).count, ids.count, "operationIds are unique")
        XCTAssertTrue(ids.contains("postApiUsersSms"))
        XCTAssertTrue(ids.contains("deleteMockInstancesById"))
        XCTAssertTrue(paths["/__mock/requests/count"] != nil && paths["/__mock/state"] != nil && paths["/__mock/instances"] != nil)
    }
}
