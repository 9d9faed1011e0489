import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// `(xPath …)` as a sub-expression gives WireMock's `ListOrSingle<XmlNode>`: `{{#each}}` walks
/// the nodes, each with `name`, `text` and `attributes`, one node renders as its text or XML.
/// Every expectation here is what WireMock 2.35.1 answered to the same mapping and request.
final class StubXPathNodesTests: MockServerTestCase {
    private let xml = #"<?xml version="1.0"?>"# + "\n" +
        #"<stuff xmlns:th="https://thing.com"><thing z="9" id="1" a="x">One<b>B</b></thing><th:thing>Two</th:thing><!--c--><n>4</n></stuff>"#

    private func rendered(_ template: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = "/xpath-nodes/\(abs(template.hashValue))"
        let added = try server.request("POST", "/__admin/mappings", json: [
            "request": ["method": "POST", "url": path],
            "response": ["status": 200, "body": template, "transformers": ["response-template"]],
        ])
        XCTAssertEqual(added.status, 201, added.text, file: file, line: line)
        let answer = try server.request("POST", path, headers: [("Content-Type", "application/xml")], body: Array(xml.utf8))
        XCTAssertEqual(answer.status, 200, answer.text, file: file, line: line)
        return answer.text
    }

    func testEachWalksTheNodesWithTheirNamesTextsAndAttributes() throws {
        XCTAssertEqual(try rendered("{{#each (xPath request.body '/stuff/node()') as |t|}}{{t.name}},{{/each}}"), "thing,th:thing,#comment,n,")
        XCTAssertEqual(try rendered("{{#each (xPath request.body '/stuff/*') as |t|}}[{{t.text}}]{{/each}}"), "[OneB][Two][4]")
        // The DOM's attribute map: by name, namespace declarations included, printed as a Java map.
        XCTAssertEqual(try rendered("{{#each (xPath request.body '/stuff/thing') as |t|}}{{{t.attributes}}}|{{/each}}"), "{a=x, id=1, z=9}|{}|")
        XCTAssertEqual(try rendered("{{#each (xPath request.body '/stuff') as |t|}}{{{t.attributes}}}{{/each}}"), "{xmlns:th=https://thing.com}")
        XCTAssertEqual(try rendered("{{#each (xPath request.body '/stuff/thing/@id') as |t|}}{{t.name}}={{t}}/{{t.text}}{{/each}}"), "id=1/1")
    }

    func testTheNodesAreAListOfNodesNotText() throws {
        XCTAssertEqual(try rendered("{{size (xPath request.body '/stuff/*')}}"), "3")
        // Java's equals: a node list is never the string its text is.
        XCTAssertEqual(try rendered("{{#eq (xPath request.body '/stuff/n/text()') '4'}}yes{{else}}no{{/eq}}"), "no")
        XCTAssertEqual(try rendered("{{math (xPath request.body '/stuff/n/text()') '+' 1}}"), "5")
        // One node, or the first of several, renders as WireMock's XmlNode.toString().
        XCTAssertEqual(try rendered("{{{xPath request.body '/stuff/thing/b'}}}"), "<b>B</b>\n")
        XCTAssertEqual(try rendered("{{#with (xPath request.body '/stuff/*') as |x|}}{{{x}}}{{/with}}"),
                       "<thing a=\"x\" id=\"1\" z=\"9\">\n  One\n  <b>B</b>\n</thing>\n")
        // Here alone (docs/stubs.md): WireMock's "" for no node has each walk a Java string's properties.
        XCTAssertEqual(try rendered("[{{#each (xPath request.body '/none') as |t|}}x{{else}}none{{/each}}]"), "[none]")
    }
}
