import Foundation
import XCTest
import HTTPServer
@testable import Stubs

/// The Handlebars engine by itself: parsed and rendered against a request, no server.
final class StubTemplateTests: XCTestCase {
    private func render(_ text: String, url: String = "/a/b?x=1&x=2", body: String = "", headers: [(String, String)] = [],
                        limit: Int = 1 << 20) throws -> String {
        let template = try StubTemplate(text, at: "/response/body")
        var h = HTTPHeaders()
        for (n, v) in headers { h.add(n, v) }
        var scope = StubRenderScope(StubRequest(method: "POST", url: url, headers: h, body: Array(body.utf8)), now: Date(timeIntervalSince1970: 1_625_000_000))
        return String(decoding: try template.render(&scope, limit: limit), as: UTF8.self)
    }

    func testBlocksAndElseIf() throws {
        XCTAssertEqual(try render("{{#if (eq request.query.x.[1] '2')}}two{{else if true}}no{{else}}none{{/if}}"), "two")
        XCTAssertEqual(try render("{{#unless request.query.y}}none{{/unless}}"), "none")
        XCTAssertEqual(try render("{{#each request.query.x}}{{@index}}={{this}}{{#unless @last}},{{/unless}}{{/each}}"), "0=1,1=2")
        XCTAssertEqual(try render("{{#each (jsonPath request.body '$') as |v k|}}{{k}}:{{v}};{{/each}}", body: #"{"a":1,"b":"x"}"#), "a:1;b:x;")
    }

    func testEscapingAndLiterals() throws {
        XCTAssertEqual(try render("{{'<&\"`=>'}}|{{{'<'}}}"), "&lt;&amp;&quot;&#x60;&#x3D;&gt;|<")
        // As WireMock: text after the last }} is outside the template, so ~ does not reach it.
        XCTAssertEqual(try render("{{request.method}} {{~! gone ~}} x"), "POST x")
        XCTAssertEqual(try render("{{request.method}} {{~request.method~}} {{!-- }} --}}x"), "POSTPOSTx")
    }

    /// An invalid pattern renders WireMock's error text; a valid one this engine refuses (a
    /// backreference) fails the answer loudly instead of rendering that text as if it were invalid.
    func testRegexExtractTellsARefusedPatternFromAnInvalidOne() throws {
        XCTAssertEqual(try render("{{regexExtract request.body '[a'}}", body: "ab"), "[ERROR: Invalid regex string [a]")
        XCTAssertThrowsError(try render(#"{{regexExtract request.body '(a)\1'}}"#, body: "aa")) { error in
            XCTAssertTrue((error as? StubRenderFailure)?.reason.contains("backtracking") ?? false, "\(error)")
        }
    }

    func testHelpers() throws {
        XCTAssertEqual(try render("{{math 10 '/' 4}} {{math 2.0 '/' 4.0}} {{math 10 '%' 3}}"), "3 0.5 1")
        XCTAssertEqual(try render("{{range 1 3}} {{size 'abc'}} {{array 1 'a'}}"), "[1, 2, 3] 3 [1, a]")
        XCTAssertEqual(try render("{{regexExtract request.body '([a-z]+)-([0-9]+)' 'p'}}{{p.1}}", body: "ab-12"), "12")
        XCTAssertEqual(try render("{{urlEncode 'a b&c'}}"), "a+b%26c")
        XCTAssertEqual(try render("{{request.query.x.first}}{{request.query.x.last}}{{request.query.x.[-1]}}"), "121")
        XCTAssertEqual(try render("{{randomValue length=5 type='ALPHABETIC'}}").count, 5)
        let random = try render("{{randomValue length=8 type='ALPHABETIC'}}")
        XCTAssertEqual(random, random.lowercased(), "lower case unless uppercase=true, as WireMock")
    }

    /// Bounds read as WireMock's HelperUtils: a Java number's int value, a text through
    /// Integer.parseInt (a refusal is WireMock's 500), a list or boolean no bound at all.
    func testNumberCoercionAsHelperUtils() throws {
        XCTAssertEqual(StubTemplateHelpers.coerceToInt(.string("+12")), .int(12))
        XCTAssertEqual(StubTemplateHelpers.coerceToInt(.string(" 1")), .notANumber(" 1"))
        XCTAssertEqual(StubTemplateHelpers.coerceToInt(.double(-2.9)), .int(-2))
        XCTAssertEqual(StubTemplateHelpers.coerceToInt(.double(1e12)), .int(Int(Int32.max)))
        XCTAssertEqual(StubTemplateHelpers.coerceToInt(.list([.string("1")], .listOrSingle)), StubTemplateHelpers.JavaInt.none)
        XCTAssertEqual(StubTemplateHelpers.coerceToDouble(.string(" 2.5d ")), 2.5)
        XCTAssertEqual(try render("{{range 2.9 3}}|{{range 5 4}}|{{range request.query.x 3}}"),
                       "[2, 3]|[]|[ERROR: The range helper requires both lower and upper bounds as integer parameters]")
        for failing in ["{{pickRandom}}", "{{range 5 1}}", "{{range 'x' 3}}", "{{randomInt lower=true}}", "{{randomDecimal upper='x'}}"] {
            XCTAssertThrowsError(try render(failing), failing)
        }
    }

    /// WireMock hands xPath String.valueOf(its input): a missing value is the text "null".
    func testXPathOfAMissingValueIsTheTextNull() throws {
        XCTAssertEqual(try render("{{{xPath request.headers.X-Absent '/a'}}}"), "[ERROR: null is not valid XML]")
    }

    /// `base64 decode=true` reads as Guava's decoder: padding optional, a 4n+1 length refused.
    func testBase64DecodePaddingIsOptional() throws {
        XCTAssertEqual(try render("{{{base64 'aGVsbG8' decode=true}}}|{{{base64 'aGVsbG8=' decode=true}}}|{{{base64 'aGk' decode=true}}}"), "hello|hello|hi")
        XCTAssertThrowsError(try render("{{{base64 'aGVsb' decode=true}}}"))
    }

    /// A JSONPath function Jayway 2.7 lacks fails when evaluated: the helper gives its default.
    func testJSONPathFunctionJayway27LacksGivesTheDefault() throws {
        XCTAssertEqual(try render("[{{jsonPath request.body '$.n.first()'}}|{{jsonPath request.body '$.n.index(1)' default='d'}}]", body: #"{"n":[1,2]}"#), "[|d]")
    }

    func testDatesAndZones() throws {
        XCTAssertEqual(try render("{{now}}"), "2021-06-29T20:53:20Z")
        XCTAssertEqual(try render("{{now offset='-1 days' format='yyyy-MM-dd'}}"), "2021-06-28")
        XCTAssertEqual(try render("{{date (truncateDate (parseDate '2021-06-29T11:22:33Z') 'first day of month')}}"), "2021-06-01T00:00:00Z")
        XCTAssertEqual(try render("{{date (parseDate '01/02/2003' format='dd/MM/yyyy') format='EEE d MMM yyyy'}}"), "Sat 1 Feb 2003")
        if StubTimeZone.named("Europe/London") != nil {
            XCTAssertEqual(try render("{{now timezone='Europe/London' format='HH:mm Z'}}"), "21:53 +0100")
        }
        XCTAssertThrowsError(try render("{{now timezone='Nowhere/Atlantis'}}")) { error in
            XCTAssertTrue((error as? StubRenderFailure)?.reason.contains("Nowhere/Atlantis") ?? false)
        }
    }

    /// `}}` then a `}` of text parses when a space or a triple mustache says which is meant.
    func testBraceAfterMustache() throws {
        XCTAssertEqual(try render("{\"n\": {{request.method}} }|{\"n\": {{{request.method}}}}"), "{\"n\": POST }|{\"n\": POST}")
    }

    func testRefusedAtLoadByName() {
        for (text, name) in [("{{stringFormat 1}}", "stringFormat"), ("{{split 'a,b' ','}}", "split"), ("{{> partial}}", "partial"), ("{{#if x}}", "{{/if}}"),
                             // handlebars.java's lexer reads `}}}` as one token, after `{{` an error.
                             ("{\"n\": {{request.query.n}}}", "'}}}'")] {
            XCTAssertThrowsError(try StubTemplate(text, at: "/response/body")) { error in
                XCTAssertTrue((error as? StubProblem)?.detail.contains(name) ?? false, "\(text): \(error)")
            }
        }
    }

    func testBoundedByBudgetAndCap() {
        XCTAssertThrowsError(try render("{{#each (range 1 2000000)}}x{{/each}}")) { error in
            guard case .overBudget? = error as? StubRenderFailure else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try render("{{#each (range 1 1000)}}xxxxxxxxxx{{/each}}", limit: 100)) { error in
            guard case .tooLarge? = error as? StubRenderFailure else { return XCTFail("\(error)") }
        }
    }
}
