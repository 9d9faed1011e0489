import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// `PUT /__mock/state` and `POST /__mock/reset {"seed"}` put a new app in the old one's place
/// (API.md §6.3): every open connection sees one whole world or the other, and the journal,
/// faults and the events stream carry over as docs/control-plane.md says.
final class AtomicStateSwapTests: MockServerTestCase {
    private let json = TestServer.adminWrite + [("Content-Type", "application/json")]

    /// A snapshot with one musbooking and one SkyZone account of its own (`tag` in both).
    private func snapshot(_ tag: String, from base: TestResponse) throws -> [UInt8] {
        XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: json, body: base.body).status, 204)
        let phone = "91234\(tag)"
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "musbooking", "phone": phone, "password": "pass123"]).status, 201)
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "skyzone", "email": "atomic\(tag)@example.com", "password": "pass1234"]).status, 201)
        return try server.request("GET", "/__mock/state").body
    }

    /// Which snapshot an accounts listing belongs to: "1", "2", or nil for a mix (or neither).
    private static func world(of listing: String) -> String? {
        let one = listing.contains("9123400001") && listing.contains("atomic00001@"), two = listing.contains("9123400002") && listing.contains("atomic00002@")
        let anyOne = listing.contains("9123400001") || listing.contains("atomic00001@")
        let anyTwo = listing.contains("9123400002") || listing.contains("atomic00002@")
        if one && !anyTwo { return "1" }
        if two && !anyOne { return "2" }
        return nil
    }

    /// A connection on the other loop reads both systems in one request (the state document), in
    /// a loop, while PUTs alternate between two snapshots: every answer is exactly one of them.
    /// (Restoring part after part into the live systems let it see one system restored and the
    /// other not.)
    func testEveryAnswerOnAnotherConnectionSeesExactlyOneSnapshot() throws {
        // One listener hands connections to the two loops in turn: the writer's and the
        // reader's connections, opened one after the other, are on different loops.
        server.stop()
        server = try TestServer(configure: { $0.singleListener = true })
        let base = try server.request("GET", "/__mock/state")
        let first = try snapshot("00001", from: base)
        let second = try snapshot("00002", from: base)
        XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: json, body: first).status, 204)

        let done = Locked(false)
        let seen = Locked<(reads: Int, mixed: [String])>((0, []))
        let writer = try server.connect()
        nonisolated(unsafe) let connection = try server.connect()   // used by the reader thread only
        let reader = DispatchGroup()
        reader.enter()
        DispatchQueue.global().async {
            defer { reader.leave() }
            do {
                // Reads until the writer is done, then once more (at least one read either way).
                var last = false
                while !last {
                    last = done.withLock { $0 }
                    try connection.sendRequest("GET", "/__mock/state")
                    let text = try connection.readResponse().text
                    seen.withLock { s in
                        s.reads += 1
                        if AtomicStateSwapTests.world(of: text) == nil, s.mixed.count < 3 { s.mixed.append(text) }
                    }
                }
            } catch {
                seen.withLock { $0.mixed.append("reader failed: \(error)") }
            }
        }
        for round in 0..<100 {
            try writer.sendRequest("PUT", "/__mock/state", headers: json, body: round % 2 == 0 ? second : first)
            let answer = try writer.readResponse()
            XCTAssertEqual(answer.status, 204, answer.text)
        }
        done.withLock { $0 = true }
        reader.wait()
        let result = seen.withLock { $0 }
        XCTAssertGreaterThan(result.reads, 0)
        XCTAssertEqual(result.mixed, [], "answers that mix the two snapshots (or match neither)")
        // The last PUT (round 99: the first snapshot) is what every connection sees now.
        XCTAssertEqual(Self.world(of: try server.request("GET", "/__mock/accounts").text), "1")
    }

    /// A PUT replaces the state only: the journal, the faults and the clock's offset from the
    /// document; a refused document (400 naming the place) changes nothing.
    func testAPutKeepsTheJournalAndFaultsAndABadDocumentChangesNothing() throws {
        let base = try server.request("GET", "/__mock/state")
        let first = try snapshot("00001", from: base)
        XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: json, body: base.body).status, 204)
        _ = try server.addFault(["path": "/rsschool/*", "times": 1, "action": ["status": 503]])
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
        let journaled = try XCTUnwrap(try server.request("GET", "/__mock/requests/count").jsonObject?["count"] as? Int)

        XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: json, body: first).status, 204)
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count").jsonObject?["count"] as? Int, journaled, "the journal is kept")
        XCTAssertEqual(try server.request("POST", "/rsschool/authorize", json: ["login": "username", "password": "password"]).status, 503,
                       "the fault is kept")

        var bad = try XCTUnwrap(JSON.parseObject(base.body))
        var systems = try XCTUnwrap(bad["systems"] as? [String: Any])
        systems["clock"] = ["offsetSeconds": -1]
        bad["systems"] = systems
        let refused = try server.request("PUT", "/__mock/state", headers: json, body: Array(try JSONSerialization.data(withJSONObject: bad)))
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue((refused.jsonObject?["error"] as? String ?? "").contains("systems.clock"), refused.text)
        XCTAssertEqual(Self.world(of: try server.request("GET", "/__mock/accounts").text), "1", "nothing changed")
    }

    /// The events stream follows the app put in place: after a reset to a given seed (and after
    /// a PUT) the same socket gets the `reset` event and what happens next.
    func testTheEventsStreamFollowsAResetToASeedAndAPut() throws {
        let events = try TestWebSocket(port: server.port, path: "/__mock/events")
        _ = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 60])
        XCTAssertEqual(try kind(events), "clock")
        let seed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestServer.repositorySeedPath))))
        XCTAssertEqual(try server.request("POST", "/__mock/reset", json: ["seed": seed]).status, 204)
        XCTAssertEqual(try kind(events), "reset")
        XCTAssertEqual(try server.request("GET", "/__mock/clock").jsonObject?["offsetSeconds"] as? Double, 0, "a reset puts the clock back")
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")]).status, 200)
        XCTAssertEqual(try kind(events), "sms", "one sms event: the outbox is observed once")
        XCTAssertEqual(try kind(events), "request")

        let state = try server.request("GET", "/__mock/state")
        XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: json, body: state.body).status, 204)
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
        XCTAssertEqual(try kind(events), "state.replaced")
        XCTAssertEqual(try kind(events), "request")
    }

    private func kind(_ ws: TestWebSocket) throws -> String? {
        guard case .text(let text) = try ws.receiveMessage() else { return nil }
        return JSON.parseObject(Array(text.utf8))?["kind"] as? String
    }
}
