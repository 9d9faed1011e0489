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

    func testQuotedFastAndEscapedPaths() {
        XCTAssertEqual(JSONText.quoted("plain"), "\"plain\"")
        XCTAssertEqual(JSONText.quoted(""), "\"\"")
        XCTAssertEqual(JSONText.quoted("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }
}
