import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// `chunkedDribbleDelay`: the body goes out in pieces on the loop's timers, each a chunk of its
/// own (as WireMock's), or framed by its whole length under `--use-chunked-encoding never`.
final class StubDribbleTests: MockServerTestCase {
    private func post(_ json: String) throws -> TestResponse { try server.request("POST", "/__admin/mappings", jsonText: json) }

    /// Near-equal pieces that cover the body exactly; never more pieces than bytes.
    func testPiecesCoverTheBody() {
        XCTAssertEqual(Delivery.Dribble(pieces: 5, totalNanos: 0).boundaries(bodyCount: 10), [2, 4, 6, 8, 10])
        XCTAssertEqual(Delivery.Dribble(pieces: 3, totalNanos: 0).boundaries(bodyCount: 10), [3, 6, 10])
        XCTAssertEqual(Delivery.Dribble(pieces: 10_000, totalNanos: 0).boundaries(bodyCount: 4), [1, 2, 3, 4])
        XCTAssertEqual(Delivery.Dribble(pieces: 1, totalNanos: 0).boundaries(bodyCount: 7), [7])
    }

    func testADribbledBodyArrivesWholeInChunksOrWithItsLength() throws {
        let mapping = #"{"request": {"url": "/d"}, "response": {"body": "abcdefghij", "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 20}}}"#
        XCTAssertEqual(try post(mapping).status, 201)
        let response = try server.request("GET", "/d")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "abcdefghij")
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(response.header("Content-Length"))
        // The connection goes on after the last piece.
        let client = try server.connect()
        try client.sendRequest("GET", "/d")
        XCTAssertEqual(try client.readResponse().text, "abcdefghij")
        try client.sendRequest("GET", "/d")
        XCTAssertEqual(try client.readResponse().text, "abcdefghij")

        var limits = StubLimits()
        limits.chunkedEncoding = .never
        let lengths = try TestServer(stubs: { clock in StubLoading.emptyStore(clock: clock, limits: limits) })
        defer { lengths.stop() }
        XCTAssertEqual(try lengths.request("POST", "/__admin/mappings", jsonText: mapping).status, 201)
        let framed = try lengths.request("GET", "/d")
        XCTAssertEqual(framed.text, "abcdefghij")
        XCTAssertEqual(framed.header("Content-Length"), "10")
        XCTAssertNil(framed.header("Transfer-Encoding"))
    }

    /// Each piece is its own write, counted by the transport's seam as it goes out: five writes,
    /// the head with the first two bytes, then two bytes each, each framed as a chunk
    /// (`2\r\nab\r\n`, 7 bytes; the last with the closing `0\r\n\r\n`, 12) (a step count, not a timing).
    func testEachPieceIsASeparateWrite() throws {
        final class Writes: @unchecked Sendable {
            private let lock = NSLock()
            private var sizes: [Int] = []
            func add(_ n: Int) { lock.lock(); sizes.append(n); lock.unlock() }
            var all: [Int] { lock.lock(); defer { lock.unlock() }; return sizes }
        }
        let writes = Writes()
        let dribbling = try TestServer(configure: { $0.onDribbledWrite = { writes.add($0) } })
        defer { dribbling.stop() }
        let mapping = #"{"request": {"url": "/w"}, "response": {"body": "abcdefghij", "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 10}}}"#
        XCTAssertEqual(try dribbling.request("POST", "/__admin/mappings", jsonText: mapping).status, 201)
        let response = try dribbling.request("GET", "/w")
        XCTAssertEqual(response.text, "abcdefghij")
        let sizes = writes.all
        XCTAssertEqual(sizes.count, 5, "\(sizes)")
        XCTAssertEqual(Array(sizes.dropFirst()), [7, 7, 7, 12])
        XCTAssertGreaterThan(sizes.first ?? 0, 2, "the head goes with the first piece")
        // An answer without dribbling never reaches the seam.
        XCTAssertEqual(try dribbling.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/p"}, "response": {"body": "plain"}}"#).status, 201)
        XCTAssertEqual(try dribbling.request("GET", "/p").text, "plain")
        XCTAssertEqual(writes.all.count, 5)
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
