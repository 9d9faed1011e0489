import Foundation
import HTTPServer
@testable import Routes
import XCTest
@testable import EmulationKit
@testable import MusbookingSystem

/// A musbooking change is validated, then committed, under one lock: `validate` sees the state
/// read-only and may refuse; `commit` cannot throw. A request that is refused however late
/// leaves the state as it was and tells the state file nothing.
final class MusbookingTransactionTests: XCTestCase {
    private func makeMusbooking() throws -> (Musbooking, Locked<Int>) {
        let system = Musbooking(seed: try Seed.bundled().musbooking, environment: MockEnvironment(clock: ManualClock(), logger: .silent))
        let signals = Locked(0)
        system.state.changes.connect { signals.withLock { $0 += 1 } }
        return (system, signals)
    }

    func testARefusalAfterTheChangeWasWorkedOutLeavesNothingChangedAndNothingSaved() throws {
        let (system, signals) = try makeMusbooking()
        let before = try system.encodeSnapshot()
        let ran = Locked(false)
        XCTAssertThrowsError(try system.transaction { (state) throws(HTTPError) -> MusbookingUser in
            // The whole change is worked out (a user with a new password)…
            guard var user = state.account(login: "Test005") else { throw HTTPError(.badRequest, "no seed account") }
            user.password = "changed1"
            // …and then the request is refused: the commit never runs.
            throw HTTPError(.badRequest, "refused after the change was built")
        } commit: { state, user in
            ran.withLock { $0 = true }
            state.update(user)
        })
        XCTAssertFalse(ran.withLock { $0 }, "commit ran after a refusal")
        XCTAssertEqual(try system.encodeSnapshot(), before, "a refused request changed the state")
        XCTAssertEqual(signals.withLock { $0 }, 0, "a refused request woke the state file")
    }

    func testACommittedChangeIsWholeAndAnnouncedOnce() throws {
        let (system, signals) = try makeMusbooking()
        let before = try system.encodeSnapshot()
        try system.transaction { (state) throws(HTTPError) -> MusbookingUser in
            guard var user = state.account(login: "Test005") else { throw HTTPError(.badRequest, "no seed account") }
            user.password = "changed1"
            return user
        } commit: { state, user in
            state.update(user)
        }
        XCTAssertNotEqual(try system.encodeSnapshot(), before)
        XCTAssertEqual(system.state.value.account(login: "Test005")?.password, "changed1")
        XCTAssertEqual(signals.withLock { $0 }, 1)
    }

    func testHandlersRefusedLateChangeNothing() throws {
        let (system, signals) = try makeMusbooking()
        let before = try system.encodeSnapshot()
        func post(_ path: String, _ form: String, token: String? = nil) -> HTTPRequest {
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/x-www-form-urlencoded")
            if let token { headers.add("Authorization", "Bearer \(token)") }
            return HTTPRequest(method: .post, target: path, headers: headers, body: Array(form.utf8))
        }
        // Each is refused inside its transaction, after the parameters were read.
        XCTAssertThrowsError(try system.registerUser(post("/api/users/register", "name=A&phone=9000000001&code=0000")))
        XCTAssertThrowsError(try system.login(post("/api/auth/login", "login=Test005&password=wrong")))
        XCTAssertThrowsError(try system.change(post("/api/users/change", "name=B", token: "unknown")))
        XCTAssertThrowsError(try system.restore(post("/api/users/restore", "login=nobody")))
        XCTAssertThrowsError(try system.confirm(post("/api/users/confirm", "id=nobody")))
        XCTAssertEqual(try system.encodeSnapshot(), before)
        XCTAssertEqual(signals.withLock { $0 }, 0)
    }
}
