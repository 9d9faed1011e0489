import Foundation
import XCTest
import HTTPServer

/// The hand-written JSON parser used on the hot paths: strict RFC 8259, never traps.
final class JSONValueTests: XCTestCase {
    private func parse(_ text: String) -> JSONValue? { JSONValue.parse(Array(text.utf8)) }

    func testDocumentsOfEveryKind() {
        XCTAssertEqual(parse(#"{"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}}"#),
                       .object([(key: "a", value: .array([.number(1), .number(-2500), .bool(true), .bool(false), .null])),
                                (key: "b", value: .object([(key: "c", value: .string("d"))]))]))
        XCTAssertEqual(parse("  \"top-level string\"\n"), .string("top-level string"))
        XCTAssertEqual(parse("0"), .number(0))
        XCTAssertEqual(parse("{\n  \"pretty\" : \"printed\"\n}")?["pretty"], .string("printed"))
    }

    func testEscapesAndUnicode() {
        XCTAssertEqual(parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(parse(#""\u0416\u00e9 \ud83d\ude00""#), .string("Жé 😀"))
        XCTAssertEqual(parse("\"Иван Петров\""), .string("Иван Петров"))
    }

    func testInvalidDocumentsAreRefused() {
        let bad = ["", " ", "{", "}", "[1,]", "{\"a\":1,}", "{'a':1}", "{a:1}", "// c\n{}", "01", "1.", ".5", "-", "1e",
                   "+1", "tru", "nul", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "\"\\udc00\"",
                   "\"tab\there\"", "[1 2]", "{\"a\" 1}", "{} {}", "NaN", "[\"\\u12\"]"]
        for text in bad { XCTAssertNil(parse(text), text.debugDescription) }
        XCTAssertNil(JSONValue.parse([0x22, 0xC3, 0x28, 0x22]), "invalid UTF-8 inside a string")
    }

    func testDeepNestingIsRefusedNotACrash() {
        XCTAssertNil(parse(String(repeating: "[", count: 100_000)))
        XCTAssertNil(parse(String(repeating: "{\"a\":", count: 50_000)))
        XCTAssertNotNil(parse(String(repeating: "[", count: 200) + String(repeating: "]", count: 200)))
    }

    func testAgreesWithJSONSerializationOnStrings() throws {
        let samples = [#"{"email":"fpi@bk.ru","password":"123123"}"#, #"{"x":"\u00e9\n"}"#, #"{"k":"v","k":"w"}"#]
        for text in samples {
            let foundation = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let ours = try XCTUnwrap(parse(text))
            for (key, value) in foundation {
                XCTAssertEqual(ours[key]?.string, value as? String, text)
            }
        }
    }

    /// A caller's words change nothing in what is parsed; their lookup sees exactly the plain
    /// ASCII texts, and what it returns is what the value holds.
    func testWordsGiveTheSameValues() {
        let seen = Locked<[String]>([])
        let words = JSONWords { text in
            seen.withLock { $0.append(String(decoding: text, as: UTF8.self)) }
            if JSONWords.spells(text, "type") { return "type" }
            return JSONWords.spells(text, "LOGIN_CUSTOMER") ? "LOGIN_CUSTOMER" : nil
        }
        for text in [#"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"a@b.c"}}"#,
                     #"{"typ":"LOGIN_CUSTOMERS","types":["type","é","a\"b"],"":""}"#, #""type""#, "[]"] {
            XCTAssertEqual(JSONValue.parse(text, words: words), JSONValue.parse(text), text)
            XCTAssertNotNil(JSONValue.parse(text, words: words), text)
        }
        XCTAssertEqual(seen.withLock { $0 }.prefix(7), ["type", "LOGIN_CUSTOMER", "sequence_id", "1", "data", "email", "a@b.c"])
        XCTAssertFalse(seen.withLock { $0 }.contains("é"), "non-ASCII and escaped texts are decoded, not looked up")
        XCTAssertTrue(JSONWords.spells(UnsafeBufferPointer(start: nil, count: 0), ""))
        XCTAssertFalse(Array("typE".utf8).withUnsafeBufferPointer { JSONWords.spells($0, "type") })
    }
}
