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

    func testEveryWriteWithoutARequiredJSONBodyDeclaresXMockAdminAndItsForbiddenSaysSo() throws {
        let doc = try document()
        let paths = try XCTUnwrap(doc["paths"] as? [String: [String: [String: Any]]])
        var marked: [String] = []
        for (path, methods) in paths where path.hasPrefix("/__mock") {
            for (method, op) in methods where method != "get" {
                let forbidden = ((op["responses"] as? [String: Any])?["403"] as? [String: Any])?["description"] as? String ?? ""
                XCTAssertTrue(forbidden.contains("X-Mock-Admin: 1"), "\(method) \(path): \(forbidden)")
                let body = op["requestBody"] as? [String: Any]
                let marker = (op["parameters"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "X-Mock-Admin" }
                if body?["required"] as? Bool == true {
                    XCTAssertNil(marker, "\(method) \(path) sends JSON anyway")
                } else {
                    XCTAssertEqual(marker?["in"] as? String, "header", "\(method) \(path)")
                    // Without a body the header is the only way in; beside an optional body, JSON stands for it.
                    XCTAssertEqual(marker?["required"] as? Bool, body == nil, "\(method) \(path)")
                    marked.append("\(method.uppercased()) \(path)")
                }
            }
        }
        XCTAssertEqual(marked.count, 12, marked.sorted().description)
        XCTAssertTrue(marked.contains("POST /__mock/reset") && marked.contains("DELETE /__mock/faults/{id}"), marked.sorted().description)
        // What the document promises is what the guard does: without the header such a call is refused, with it it passes.
        XCTAssertEqual(try server.request("DELETE", "/__mock/requests").status, 403)
        XCTAssertEqual(try server.request("DELETE", "/__mock/requests", headers: [("X-Mock-Admin", "1")]).status, 204)
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
