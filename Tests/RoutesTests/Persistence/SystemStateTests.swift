import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import EmulationKit
@testable import GatewaySystem
@testable import MusbookingSystem
@testable import StatePersistence

/// Each system through a restart on one state file: what it must keep, what must not wake the
/// writer (the hot paths), and the clear start error for content a system cannot restore.
final class SystemStateTests: TemporaryDirectoryTestCase {
    private func open(_ server: TestServer, logger: Logger = .silent) throws -> StateStore {
        try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: logger)
    }

    /// Runs `body` on a server whose state is kept in the file, then closes both (the last
    /// changes written), as a stop and a restart would; each run draws other random numbers.
    private func run(_ randomSeed: UInt64, clock: ManualClock = ManualClock(), _ body: (TestServer) throws -> Void) throws {
        let server = try TestServer(clock: clock, random: SeededRandomSource(seed: randomSeed))
        let store = try open(server)
        defer {
            store.close()
            server.stop()
        }
        try body(server)
    }

    func testAMusbookingAccountAndItsSessionSurviveARestartUntilTheTokenExpires() throws {
        var token = "", id = ""
        try run(1) { server in
            let r = try server.musbookingRegister(phone: "9031234567", extra: [("password", "secret1"), ("email", "a@b.ru")])
            XCTAssertEqual(r.status, 200, r.text)
            token = try server.musbookingLogin("9031234567", "secret1")
            id = try XCTUnwrap(try server.musbookingUser(token).jsonObject?["id"] as? String)
            // Codes are kept too (a registration does not use one up, as the original).
            _ = try server.musbookingCode(phone: "9037654321")
        }
        let clock = ManualClock()
        try run(2, clock: clock) { server in
            let profile = try server.musbookingUser(token)
            XCTAssertEqual(profile.status, 200, profile.text)
            XCTAssertEqual(profile.jsonObject?["id"] as? String, id)
            XCTAssertEqual(profile.jsonObject?["email"] as? String, "a@b.ru")
            XCTAssertFalse(try server.musbookingLogin("9031234567", "secret1").isEmpty)
            // The seed's own account is there as well, and the restored one's phone stays taken.
            XCTAssertFalse(try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password).isEmpty)
            XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9031234567")]).status, 400)
            let code = try XCTUnwrap((try stateSystems(statePath)["musbooking"] as? [String: Any])?["codes"] as? [[String: Any]])
            XCTAssertEqual(code.compactMap { $0["phone"] as? String }, ["9031234567", "9037654321"])
        }
        try run(3, clock: clock) { server in
            // The login in the last run ended the first session: one session per user, kept as such.
            XCTAssertEqual(try server.musbookingUser(token).status, 401)
        }
        var fresh = ""
        try run(4, clock: clock) { server in fresh = try server.musbookingLogin("9031234567", "secret1") }
        clock.advance(by: 86_400 + 1)
        try run(5, clock: clock) { server in
            let expired = try server.musbookingUser(fresh)
            XCTAssertEqual(expired.status, 400, "a restored session still expires: \(expired.text)")
        }
    }

    func testASkyZoneAccountAndItsTokenSurviveARestart() throws {
        var token = ""
        let credentials = ["username": "New.Jumper@example.com", "password": "pw-1"]
        try run(1) { server in
            XCTAssertEqual(try server.request("POST", "/customer", json: credentials).status, 200)
            let social = try server.request("POST", "/customer", json: ["external-token": "fb-123", "external-type": "facebook"])
            XCTAssertEqual(social.status, 200, social.text)
            let signIn = try server.request("POST", "/tokens", json: credentials)
            token = try XCTUnwrap((signIn.jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        }
        try run(2) { server in
            let profile = try server.request("GET", "/customer", headers: bearer(token))
            XCTAssertEqual(profile.status, 200, profile.text)
            XCTAssertEqual(profile.jsonObject?["email"] as? String, "New.Jumper@example.com")
            let again = try server.request("POST", "/tokens", json: ["username": "new.jumper@example.com", "password": "pw-1"])
            XCTAssertEqual((again.jsonObject?["auth"] as? [String: Any])?["verified"] as? Bool, true, again.text)
            let social = try server.request("POST", "/tokens", json: ["external-token": "fb-123", "external-type": "facebook"])
            XCTAssertEqual((social.jsonObject?["auth"] as? [String: Any])?["verified"] as? Bool, true, social.text)
            // A new account never reuses an id a restored one has.
            let ids = try server.request("POST", "/customer", json: ["username": "third@example.com", "password": "x"]).jsonObject?["id"] as? Int
            XCTAssertEqual(ids, 112_352_352_238)
        }
    }

    func testTheGatewayKeyAndARevokedRowsTokenSurviveARestart() throws {
        var gatewayToken = "", revoked = "", kept = ""
        try run(1) { server in
            let gateway = try XCTUnwrap(server.app.system(named: "gateway") as? CustomerGateway)
            let reply = JSONValue.parse(gateway.replyText(to: #"{"type": "LOGIN_CUSTOMER", "sequence_id": 1, "data": {"email": "fpi@bk.ru", "password": "123123"}}"#))
            gatewayToken = try XCTUnwrap(reply?["data"]?["api_token"]?.string, "\(String(describing: reply))")
            revoked = try rowsToken(server)
            kept = try rowsToken(server)
            let rows = try XCTUnwrap(server.app.system(named: "rows"))
            XCTAssertEqual(rows.revokeTokens(revoked), 1)
        }
        try run(2) { server in
            let gateway = try XCTUnwrap(server.app.system(named: "gateway") as? CustomerGateway)
            XCTAssertTrue(gateway.isIssued(gatewayToken))
            XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", kept)]).status, 200)
            XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", revoked)]).status, 403)
        }
    }

    /// Logins that issue signed tokens, rows pages, and musbooking reads change nothing the file
    /// keeps: not one write (the writer would write within 50 ms of a signal; flush forces it).
    func testHotPathsAndReadsNeverWakeTheWriter() throws {
        let server = try TestServer()
        let store = try open(server)
        defer { store.close() }
        let musbooking = try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password)
        let skyzone = try server.request("POST", "/tokens", json: ["username": "skyzonecustomer@gmail.com", "password": "password1"])
        let skyToken = try XCTUnwrap((skyzone.jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        store.flush()
        let before = store.writeCount
        let gateway = try XCTUnwrap(server.app.system(named: "gateway") as? CustomerGateway)
        for _ in 0..<20 {
            let token = try rowsToken(server)
            XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", token)]).status, 200)
            _ = gateway.replyText(to: #"{"type": "LOGIN_CUSTOMER", "sequence_id": 1, "data": {"email": "fpi@bk.ru", "password": "123123"}}"#)
            XCTAssertEqual(try server.musbookingUser(musbooking).status, 200)
            XCTAssertEqual(try server.request("GET", "/api/categories/1", headers: bearer(musbooking)).status, 200)
            XCTAssertEqual(try server.request("HEAD", "/api/auth/login?login=Test005&password=123456").status, 200)
            XCTAssertEqual(try server.request("GET", "/customer", headers: bearer(skyToken)).status, 200)
            XCTAssertEqual(try server.request("POST", "/api/auth/login", form: [("login", "Test005"), ("password", "wrong")]).status, 400)
            XCTAssertEqual(try server.request("GET", "/__mock/accounts").status, 200)
        }
        store.flush()
        XCTAssertEqual(store.writeCount, before)
        // And a change does write: the check above can fail.
        XCTAssertFalse(try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password).isEmpty)
        store.flush()
        XCTAssertEqual(store.writeCount, before + 1)
    }

    func testContentASystemCannotRestoreStopsTheStartNamingIt() throws {
        let user = #"{"id": "u1", "login": "a1", "password": "p", "phone": "9031234567", "isConfirmed": false}"#
        let cases: [(String, String)] = [
            (#""musbooking": {"users": 1, "codes": [], "sessions": []}"#, "systems.musbooking.users"),
            (#""musbooking": {"users": [\#(user), \#(user)], "codes": [], "sessions": []}"#, "systems.musbooking: users: user id u1 twice"),
            (#""musbooking": {"users": [\#(user)], "codes": [], "sessions": [{"token": "t", "userId": "u2", "expiresAt": 1}]}"#,
             "systems.musbooking: sessions: token t belongs to no account"),
            (#""musbooking": {"users": [{"id": "u1", "birthday": "31.02.2000", "isConfirmed": false}], "codes": [], "sessions": []}"#,
             "systems.musbooking.users"),
            (#""skyzone": {"accounts": [], "nextId": 1, "tokens": [{"token": "t", "id": 5}]}"#, "systems.skyzone: tokens: token t belongs to no account"),
            (#""skyzone": {"accounts": [{"profile": {"id": 1}}, {"profile": {"id": 1}}], "nextId": 1, "tokens": []}"#, "systems.skyzone: accounts: id 1 twice"),
            (#""gateway": {"tokenKey": "00"}"#, "systems.gateway: a token key must be 32 hex digits"),
            (#""rows": {"tokenKey": "0123456789abcdef0123456789abcdef", "revoked": ["-1"]}"#, "systems.rows: a revoked token must be 16 hex digits"),
        ]
        for (part, expected) in cases {
            let text = #"{"format": "mock-server-state", "version": 1, "systems": {\#(part)}}"#
            try Data(text.utf8).write(to: URL(fileURLWithPath: statePath))
            let server = try TestServer()
            XCTAssertThrowsError(try open(server)) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix(statePath + ": ") && message.contains(expected), "\(message) lacks \(expected)")
            }
            XCTAssertEqual(try String(contentsOfFile: statePath, encoding: .utf8), text, "the file must not be touched")
        }
    }

    /// The hand-written JSON of musbooking reads back through its `Codable` as the same snapshot.
    func testMusbookingWritesWhatItsCodableReads() throws {
        let server = try TestServer()
        XCTAssertEqual(try server.musbookingRegister(phone: "9031234567", extra: [("password", "secret1"), ("birthday", "01.02.1990")]).status, 200)
        _ = try server.musbookingLogin("9031234567", "secret1")
        _ = try server.musbookingCode(phone: "9030000000")
        let musbooking = try XCTUnwrap(server.app.system(named: "musbooking") as? Musbooking)
        let decoded = try StateCoding.decoder().decode(MusbookingSnapshot.self, from: try musbooking.encodeSnapshot())
        XCTAssertEqual(decoded, musbooking.snapshot())
        XCTAssertEqual(try StateCoding.decoder().decode(MusbookingSnapshot.self, from: try StateCoding.encoder().encode(decoded)), decoded)
        XCTAssertEqual(decoded.users.last?.birthday?.formatted, "01.02.1990 00:00:00")
    }

    /// The hook for a clock with state (the control plane's offset clock): conforming to
    /// `PersistentSystem` is all it takes to be kept under its key.
    func testAClockThatIsAPersistentSystemIsKept() throws {
        let first = OffsetClock()
        var server = try TestServer(environment: { $0.clock = first })
        var store = try open(server)
        first.offset.replace(90)
        store.close()
        server.stop()
        XCTAssertEqual((try stateSystems(statePath)["clock"] as? [String: Any])?["offset"] as? Double, 90)

        let second = OffsetClock()
        server = try TestServer(environment: { $0.clock = second })
        store = try open(server)
        defer { store.close() }
        XCTAssertEqual(second.offset.value, 90)
    }

    private func rowsToken(_ server: TestServer) throws -> String {
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        return try XCTUnwrap(login.jsonObject?["token"] as? String)
    }
}

/// A clock with an offset kept in the state file, as the control plane's will be.
private final class OffsetClock: Clock, PersistentSystem {
    struct Snapshot: Codable, Sendable { var offset: Double }
    let offset = StateCell<Double>(0)
    func now() -> Date { Date(timeIntervalSince1970: 1_800_000_000 + offset.value) }
    var stateKey: String { "clock" }
    var stateChanges: ChangeSignal { offset.changes }
    func snapshot() -> Snapshot { Snapshot(offset: offset.value) }
    func restore(_ snapshot: Snapshot) throws { offset.replace(snapshot.offset) }
}
