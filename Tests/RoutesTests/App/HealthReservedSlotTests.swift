import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// Issue 28: `/__mock/health` is answered even when clients fill the connection table, on a slot
/// kept for it; anything else asked on that slot gets the full table's 503.
final class HealthReservedSlotTests: XCTestCase {
    func testHealthIsAnsweredWhenTheConnectionTableIsFull() throws {
        let limit = 4
        let server = try TestServer(configure: { $0.maxConnections = limit })
        defer { server.stop() }
        // Fill the table with keep-alive clients, each known to be in by an answer.
        let holders = try (0..<limit).map { _ -> TestHTTPClient in
            let client = try server.connect()
            try client.sendRequest("GET", "/rows/1")
            XCTAssertNotEqual(try client.readResponse().status, 503)
            return client
        }
        XCTAssertEqual(server.server.openConnections, limit)

        let probe = try server.connect()
        try probe.sendRequest("GET", "/__mock/health")
        let health = try probe.readResponse()
        XCTAssertEqual(health.status, 200, health.text)
        XCTAssertEqual(health.header("Connection")?.lowercased(), "close", "the reserved slot is given back at once")

        let other = try server.connect()
        try other.sendRequest("GET", "/rows/1")
        XCTAssertEqual(try other.readResponse().status, 503, "only the reserved paths use the reserved slot")

        // The reserved slots are not places in the table: it still holds its own clients.
        XCTAssertEqual(server.server.openConnections, limit)
        _ = holders
    }
}
