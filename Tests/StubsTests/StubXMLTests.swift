import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// The XML reader, XPath, equalToXml and the xPath helper: pure units, then over real sockets.
final class StubXMLTests: MockServerTestCase {
    private func select(_ xpath: String, _ xml: String, namespaces: [String: String]? = nil) throws -> [String] {
        let document = try XMLParser.parse(xml)
        var evaluator = XPathEvaluator(document: document, namespaces: namespaces, budget: StubBudget())
        let nodes = try evaluator.select(XPath(xpath))
        var budget = StubBudget()
        return nodes.map { document.text(of: $0, budget: &budget) }
    }

    func testTheReaderDecodesReferencesCDataAndNamespaces() throws {
        let doc = try XMLParser.parse("<?xml version='1.0'?><!--c--><p:a xmlns:p='u' k='&lt;&#65;&#x42;&quot;'><![CDATA[<x>]]>&amp;&apos;</p:a>")
        let root = doc[doc.root]
        XCTAssertEqual(root.localName, "a")
        XCTAssertEqual(root.namespace, "u")
        XCTAssertEqual(doc[root.attributes[0]].value, "<AB\"")
        XCTAssertEqual(root.children.map { doc[$0].value }, ["<x>", "&'"])
    }

    func testTheReaderRefusesDeclaredEntitiesAndSkipsTheDoctype() throws {
        // The internal subset is skipped, never applied: no expansion, nothing fetched.
        XCTAssertThrowsError(try XMLParser.parse("<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;\">]><r>&b;</r>"))
        XCTAssertNoThrow(try XMLParser.parse("<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/x.dtd\"><r/>"))
        XCTAssertThrowsError(try XMLParser.parse("<r><a></r>"))
        XCTAssertThrowsError(try XMLParser.parse("<r/><r/>"))
        XCTAssertThrowsError(try XMLParser.parse("text<r/>"))
    }

    func testNestingDeeperThanTheCapIsRefused() {
        let deep = String(repeating: "<a>", count: XMLParser.maxDepth + 1) + String(repeating: "</a>", count: XMLParser.maxDepth + 1)
        XCTAssertThrowsError(try XMLParser.parse(deep))
        let fine = String(repeating: "<a>", count: XMLParser.maxDepth) + String(repeating: "</a>", count: XMLParser.maxDepth)
        XCTAssertNoThrow(try XMLParser.parse(fine))
    }

    func testXPathAxesPredicatesAndFunctions() throws {
        let xml = "<r><a n='1'>x</a><a n='2'>y</a><b><a n='3'>z</a></b></r>"
        XCTAssertEqual(try select("//a[@n>1]/text()", xml), ["y", "z"])
        XCTAssertEqual(try select("/r/a[last()]/@n", xml), ["2"])
        XCTAssertEqual(try select("//a[position()=1]", xml).count, 2)
        XCTAssertEqual(try select("//a[.='z']/../../b/a/@n", xml), ["3"])
        XCTAssertEqual(try select("/r[count(a)=2 and sum(//@n)=6]/b/a/text()", xml), ["z"])
        XCTAssertEqual(try select("//a[contains(., 'y') or starts-with(@n, '3')]/@n", xml), ["2", "3"])
        XCTAssertEqual(try select("//*[local-name()='b']/following-sibling::* | /r/a[1]/following-sibling::a/@n", xml), ["2"])
        XCTAssertEqual(try select("/r/a[normalize-space(concat(' ', ., ' '))='x' and string-length()=1 and not(@m)]/@n", xml), ["1"])
        XCTAssertEqual(try select("//a[substring(@n, 1, 1) = translate('3', '3', '3')]/ancestor::*[1]/self::b/a/text()", xml), ["z"])
    }

    func testNamespacesAsWireMockReadsThem() throws {
        let xml = "<t:r xmlns:t='u'><m:a xmlns:m='v'>1</m:a><a>2</a></t:r>"
        // Without xPathNamespaces: local names match, a prefixed name test matches nothing, and a
        // lone //a compares the written name (Xalan on WireMock's namespace-unaware DOM).
        XCTAssertEqual(try select("/r/a/text()", xml), ["1", "2"])
        XCTAssertEqual(try select("/t:r", xml), [])
        XCTAssertEqual(try select("//a", xml), ["<a>2</a>\n"])
        XCTAssertEqual(try select("//a/text()", xml), ["1", "2"])
        XCTAssertEqual(try select("//a[1]/text()", xml), ["1"])
        // With them: URIs decide.
        XCTAssertEqual(try select("/x:r/y:a/text()", xml, namespaces: ["x": "u", "y": "v"]), ["1"])
        XCTAssertEqual(try select("/x:r/a/text()", xml, namespaces: ["x": "u"]), ["2"])
    }

    func testANonNodeSetResultOrBadSyntaxIsAnError() {
        XCTAssertThrowsError(try select("count(//a)", "<a/>"))
        XCTAssertThrowsError(try XPath("//\\\\&&&&&"))
        XCTAssertThrowsError(try XPath("//a[ends-with(., 'x')]"))
        XCTAssertThrowsError(try XPath(String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100)))
    }

    func testAnElementRendersAsJavasIndentingTransformer() throws {
        XCTAssertEqual(try select("/o", "<o>\n <p>\n  <i>s</i>\n </p>\n</o>"), ["<o>\n   \n  <p>\n      \n    <i>s</i>\n     \n  </p>\n  \n</o>\n"])
        XCTAssertEqual(try select("/o", "<o z=\"1\" a=\"2\" xmlns:b=\"u\"><e/><f></f>m<!--c--></o>"), ["<o xmlns:b=\"u\" a=\"2\" z=\"1\">\n  <e/>\n  <f/>\n  m\n  <!--c-->\n</o>\n"])
    }

    func testTheSelectionSpendsTheBudget() throws {
        let xml = "<r>" + String(repeating: "<a>x</a>", count: 2_000) + "</r>"
        let document = try XMLParser.parse(xml)
        var evaluator = XPathEvaluator(document: document, namespaces: nil, budget: StubBudget(steps: 10_000))
        // Each of 2,000 nodes against each of 2,000: far over 10,000 steps, so it stops.
        XCTAssertThrowsError(try evaluator.select(XPath("//a[. = //a]")))
        XCTAssertTrue(evaluator.budget.exhausted)
    }

    private func equal(_ expected: String, _ actual: String, placeholders: Bool = false, exempted: Set<String> = []) throws -> Bool {
        let equality = try XMLEquality(expected, placeholders: placeholders, opening: nil, closing: nil, exempted: exempted, at: "/p")
        var budget = StubBudget()
        return equality.matches(actual, budget: &budget)
    }

    func testEqualToXmlAsWireMockAnswers() throws {
        XCTAssertTrue(try equal("<a><b>1</b><c>2</c></a>", "<a>\n <c>2</c><!--x--> <b> 1 </b></a>"))
        XCTAssertFalse(try equal("<a><b>1</b><b>2</b></a>", "<a><b>2</b><b>1</b></a>"))
        XCTAssertTrue(try equal("<p:a xmlns:p='u'/>", "<q:a xmlns:q='v'/>"))
        XCTAssertFalse(try equal("<a xmlns='u'/>", "<a/>"))
        XCTAssertTrue(try equal("<a/>", "<a xmlns='u'/>"))
        XCTAssertFalse(try equal("<a x='1'/>", "<a x='1' y='2'/>"))
        XCTAssertFalse(try equal("<a>x<b/></a>", "<a>x<b/></a>"), "mixed content never matches in WireMock")
        XCTAssertTrue(try equal("<a>x</a>", "<a><![CDATA[x]]></a>"))
        XCTAssertFalse(try equal("<a>x y</a>", "<a>x  y</a>"))
        XCTAssertTrue(try equal("<a xmlns='u'><b/></a>", "<a xmlns='w'><b/></a>", exempted: ["NAMESPACE_URI"]))
    }

    func testPlaceholders() throws {
        XCTAssertTrue(try equal("<a>${xmlunit.ignore}</a>", "<a><b/></a>", placeholders: true))
        XCTAssertFalse(try equal("<a>${xmlunit.ignore}</a>", "<a>1</a>"))
        XCTAssertTrue(try equal("<a x=' ${ xmlunit.isNumber } '>${xmlunit.matchesRegex([0-9]+)}</a>", "<a x='1.5'>12</a>", placeholders: true))
        XCTAssertFalse(try equal("<a>${xmlunit.isNumber}</a>", "<a>x</a>", placeholders: true))
        XCTAssertFalse(try equal("<a>pre${xmlunit.ignore}</a>", "<a>pre1</a>", placeholders: true))
    }

    func testMappingsMatchAndRenderOverHTTP() throws {
        let xpath = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"method": "POST", "url": "/x", "bodyPatterns": [{"matchesXPath": {"expression": "//n:v/text()", "equalTo": "7"}, "xPathNamespaces": {"n": "urn:n"}}]}, "response": {"body": "{{xPath request.body '/r/v/text()'}}-{{{soapXPath request.body '/q'}}}", "transformers": ["response-template"]}}"#)
        XCTAssertEqual(xpath.status, 201, xpath.text)
        let xml: [(String, String)] = [("Content-Type", "text/xml")]
        XCTAssertEqual(try server.request("POST", "/x", headers: xml, body: Array("<r xmlns:n='urn:n'><n:v>7</n:v></r>".utf8)).text, "7-")
        XCTAssertEqual(try server.request("POST", "/x", headers: xml, body: Array("<r xmlns:n='urn:n'><n:v>8</n:v></r>".utf8)).status, 404)
        let equal = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"method": "POST", "url": "/e", "bodyPatterns": [{"equalToXml": "<a><b/></a>"}]}, "response": {"status": 204}}"#)
        XCTAssertEqual(equal.status, 201, equal.text)
        XCTAssertEqual(try server.request("POST", "/e", headers: xml, body: Array("<a>\n  <b></b>\n</a>".utf8)).status, 204)
        let bad = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"bodyPatterns": [{"equalToXml": "(wrong)"}]}}"#)
        XCTAssertEqual(bad.status, 422)
        XCTAssertTrue(bad.text.contains("/request/bodyPatterns/0"), bad.text)
        let exempt = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"bodyPatterns": [{"equalToXml": "<a/>", "exemptedComparisons": ["NOPE"]}]}}"#)
        XCTAssertEqual(exempt.status, 422)
        XCTAssertTrue(exempt.text.contains("/request/bodyPatterns/0/exemptedComparisons/0"), exempt.text)
    }
}
