import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import MockControl

/// Issue 20 §8: `GET /__mock/requests` is built off the loop, so a large journal does not hold
/// the loop's other connections. The build is held by a test hook until released: no timing.
final class JournalReadOffLoopTests: XCTestCase {
    func testWhileAJournalAnswerIsBeingBuiltTheLoopAnswersAnotherConnection() throws {
        // One loop: the journal's connection and the health check's share it.
        let server = try TestServer(configure: { $0.eventLoops = 1 })
        for id in 1...300 { _ = try server.request("GET", "/rows/\(id)") }
        let hold = JournalBuildHold()
        server.app.control.journalBuildHold.withLock { $0 = hold }
        // Released however the test ends, so the server can stop.
        defer { hold.release.signal() }

        let reader = try TestHTTPClient(port: server.port)
        try reader.sendRequest("GET", "/__mock/requests")
        XCTAssertEqual(hold.reached.wait(timeout: .now() + 10), .success, "the journal answer's build never started")

        // The build is held; were it on the loop, the loop would be held too and this would time out.
        XCTAssertEqual(try server.request("GET", "/__mock/health").status, 200)
        var byte: UInt8 = 0
        let peeked = recv(reader.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        XCTAssertTrue(peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), "the journal answer is still pending")

        hold.release.signal()
        let journal = try reader.readResponse()
        XCTAssertEqual(journal.status, 200)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]])
        XCTAssertEqual(entries.filter { ($0["path"] as? String)?.hasPrefix("/rows/") ?? false }.count, 100, "the default page of the newest entries")
    }
}
