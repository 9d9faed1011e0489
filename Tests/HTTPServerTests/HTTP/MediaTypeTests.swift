import XCTest
import HTTPServer

/// `HTTPRequest.mediaType`: the byte-wise fast path and the general path agree.
final class MediaTypeTests: XCTestCase {
    private func mediaType(_ contentType: String?) -> String {
        var request = HTTPRequest(method: .post, target: "/auth/login")
        if let contentType { request.headers.add("Content-Type", contentType) }
        return request.mediaType
    }

    func testMediaTypeWithoutParametersLowercasedAndTrimmed() {
        XCTAssertEqual(mediaType(nil), "")
        XCTAssertEqual(mediaType(""), "")
        XCTAssertEqual(mediaType("application/json"), "application/json")
        XCTAssertEqual(mediaType("application/json; charset=utf-8"), "application/json")
        XCTAssertEqual(mediaType("application/json ;charset=utf-8"), "application/json")
        XCTAssertEqual(mediaType("application/json\t"), "application/json")
        XCTAssertEqual(mediaType(" application/json"), "application/json")
        XCTAssertEqual(mediaType("Application/JSON; charset=UTF-8"), "application/json")
        XCTAssertEqual(mediaType("multipart/form-data; boundary=XyZ"), "multipart/form-data")
        // split(separator:) omits the empty type before a leading ";" (kept as it was).
        XCTAssertEqual(mediaType(";charset=utf-8"), "charset=utf-8")
        XCTAssertEqual(mediaType("text/plain é"), "text/plain é")
    }
}
