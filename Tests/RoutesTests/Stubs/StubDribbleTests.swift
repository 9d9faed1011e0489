import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// `chunkedDribbleDelay`: the body goes out in pieces on the loop's timers, framed by its whole length.
final class StubDribbleTests: MockServerTestCase {
    private func post(_ json: String) throws -> TestResponse { try server.request("POST", "/__admin/mappings", jsonText: json) }

    /// Near-equal pieces that cover the body exactly; never more pieces than bytes.
    func testPiecesCoverTheBody() {
        XCTAssertEqual(Delivery.Dribble(pieces: 5, totalNanos: 0).boundaries(bodyCount: 10), [2, 4, 6, 8, 10])
        XCTAssertEqual(Delivery.Dribble(pieces: 3, totalNanos: 0).boundaries(bodyCount: 10), [3, 6, 10])
        XCTAssertEqual(Delivery.Dribble(pieces: 10_000, totalNanos: 0).boundaries(bodyCount: 4), [1, 2, 3, 4])
        XCTAssertEqual(Delivery.Dribble(pieces: 1, totalNanos: 0).boundaries(bodyCount: 7), [7])
    }

    func testADribbledBodyArrivesWholeWithItsLength() throws {
        let mapping = #"{"request": {"url": "/d"}, "response": {"body": "abcdefghij", "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 20}}}"#
        XCTAssertEqual(try post(mapping).status, 201)
        let response = try server.request("GET", "/d")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "abcdefghij")
        XCTAssertEqual(response.header("Content-Length"), "10")
        // The connection goes on after the last piece.
        XCTAssertEqual(try server.request("GET", "/d").text, "abcdefghij")
    }

    func testBoundsAreRefusedWithThePointer() throws {
        for bad in [#"{"numberOfChunks": 0, "totalDuration": 10}"#, #"{"numberOfChunks": 10001, "totalDuration": 10}"#,
                    #"{"numberOfChunks": 2, "totalDuration": 600001}"#, #"{"numberOfChunks": 2}"#, #"{"numberOfChunks": 2, "totalDuration": 1, "x": 1}"#] {
            let response = try post(#"{"request": {"url": "/b"}, "response": {"body": "b", "chunkedDribbleDelay": \#(bad)}}"#)
            XCTAssertEqual(response.status, 422, bad)
            XCTAssertTrue(response.text.contains("/response/chunkedDribbleDelay"), response.text)
        }
    }
}
