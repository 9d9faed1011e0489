import XCTest
import HTTPServer

/// Keys and strings take a fast path (interned literals, plain ASCII); every kind still comes out as written.
final class JSONKeyTests: XCTestCase {
    func testKeysOfEveryKind() throws {
        let text = #"{"type":1,"typ":2,"types":3,"Type":4,"typ\u0065":5,"sequence_id":6,"data":7,"email":8,"password":9,"é":10,"":11,"a\"b":12}"#
        guard case .object(let members)? = JSONValue.parse(Array(text.utf8)) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["type", "typ", "types", "Type", "type", "sequence_id", "data", "email", "password", "é", "", "a\"b"])
        XCTAssertEqual(members.map(\.value), (1...12).map { .number(Double($0)) })
        XCTAssertEqual(JSONValue.parse(Array(#"["LOGIN_CUSTOMER","LOGIN_CUSTOMEr","LOGIN_CUSTOMERS","data",""]"#.utf8)),
                       .array(["LOGIN_CUSTOMER", "LOGIN_CUSTOMEr", "LOGIN_CUSTOMERS", "data", ""]))
        XCTAssertNil(JSONValue.parse(Array(#"{"type"#.utf8)), "unterminated key")
        XCTAssertNil(JSONValue.parse(Array(#"["LOGIN_CUSTOMER"#.utf8)), "unterminated value")
        XCTAssertNil(JSONValue.parse(Array("{\"ty\tpe\":1}".utf8)), "control character in a key")
        XCTAssertNil(JSONValue.parse([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]), "invalid UTF-8 in a key")
    }

    func testSpecialBytesAtEveryPlaceOfAString() {
        // The plain-run scan reads eight bytes at a time: put each kind of byte at every offset.
        for length in 0..<20 {
            for position in 0...length {
                let before = String(repeating: "a", count: position), after = String(repeating: "b", count: length - position)
                let json = "\(before)\(after)"
                XCTAssertEqual(JSONValue.parse(Array("[\"\(json)\"]".utf8)), .array([.string(json)]))
                XCTAssertEqual(JSONValue.parse(Array(#"[""#.utf8) + Array(before.utf8) + Array(#"\"\\\n"#.utf8) + Array(after.utf8) + Array(#""]"#.utf8)),
                               .array([.string(before + "\"\\\n" + after)]))
                XCTAssertEqual(JSONValue.parse(Array("[\"\(before)é😀\(after)\"]".utf8)), .array([.string(before + "é😀" + after)]))
                XCTAssertEqual(JSONValue.parse(Array("[\"\(before)\u{7F}~ \(after)\"]".utf8)), .array([.string(before + "\u{7F}~ " + after)]))
                XCTAssertNil(JSONValue.parse(Array("[\"\(before)\u{1F}\(after)\"]".utf8)), "control character at \(position)")
                XCTAssertNil(JSONValue.parse(Array("[\"\(before)\u{0}\(after)\"]".utf8)), "NUL at \(position)")
                XCTAssertNil(JSONValue.parse(Array("[\"\(before)\"\(after)\"]".utf8)), "early quote at \(position)")
                XCTAssertNil(JSONValue.parse(Array("[\"\(before)\(after)".utf8)), "unterminated")
                XCTAssertNil(JSONValue.parse(Array("[\"\(before)".utf8) + [0xFF] + Array("\(after)\"]".utf8)), "invalid UTF-8 at \(position)")
            }
        }
    }

    func testQuotedFastAndEscapedPaths() {
        XCTAssertEqual(JSONText.quoted("plain"), "\"plain\"")
        XCTAssertEqual(JSONText.quoted(""), "\"\"")
        XCTAssertEqual(JSONText.quoted("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }
}
