import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import GatewaySystem

final class CustomerGatewayTests: MockServerTestCase {
    private var gateway: CustomerGateway!

    private static let seededCustomerId = "8ece7825-7ac6-4555-adb7-fa02647a0b70"
    private static let errorDataKeys: Set<String> = ["error_description", "error_code", "in_event", "error_uuid"]
    private static let inEventKeys: Set<String> = ["type", "event_id", "sequence_id", "customer_id", "email", "password"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        gateway = try XCTUnwrap(server.app.systems.compactMap { $0 as? CustomerGateway }.first)
    }

    override func tearDown() {
        gateway = nil
        super.tearDown()
    }

    // MARK: - Helpers

    private func send(_ text: String) -> [String: Any] {
        let reply = gateway.replyText(to: text)
        guard let object = JSON.parseObject(Array(reply.utf8)) else {
            XCTFail("reply is not a JSON object: \(reply)")
            return [:]
        }
        return object
    }

    private func send(_ message: [String: Any]) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: message)
        return send(String(decoding: data, as: UTF8.self))
    }

    private func login(_ email: Any?, _ password: Any?, sequenceId: String? = "A29E4FD0-581D-E06B-C837-4F5F4BE7DD18") throws -> [String: Any] {
        var data: [String: Any] = [:]
        if let email { data["email"] = email }
        if let password { data["password"] = password }
        var message: [String: Any] = ["type": "LOGIN_CUSTOMER", "data": data]
        if let sequenceId { message["sequence_id"] = sequenceId }
        return try send(message)
    }

    private func data(_ reply: [String: Any]) -> [String: Any] {
        reply["data"] as? [String: Any] ?? [:]
    }

    private func isUUID(_ value: Any?) -> Bool {
        (value as? String).flatMap { UUID(uuidString: $0) } != nil
    }

    /// Checks the shape one public client depends on: every key present, every value a string.
    private func assertErrorShape(_ reply: [String: Any], type: String = "CUSTOMER_ERROR", code: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply["type"] as? String, type, "\(reply)", file: file, line: line)
        XCTAssertNotNil(reply["sequence_id"] as? String, file: file, line: line)
        let data = data(reply)
        let keys = type == "CUSTOMER_VALIDATION_ERROR" ? CustomerGatewayTests.errorDataKeys.union(["errors"]) : CustomerGatewayTests.errorDataKeys
        XCTAssertEqual(Set(data.keys), keys, file: file, line: line)
        XCTAssertEqual(data["error_code"] as? String, code, file: file, line: line)
        XCTAssertFalse((data["error_description"] as? String ?? "").isEmpty, file: file, line: line)
        XCTAssertTrue(isUUID(data["error_uuid"]), "\(data)", file: file, line: line)
        let event = data["in_event"] as? [String: Any] ?? [:]
        XCTAssertEqual(Set(event.keys), CustomerGatewayTests.inEventKeys, file: file, line: line)
        for key in CustomerGatewayTests.inEventKeys {
            XCTAssertNotNil(event[key] as? String, "in_event.\(key) must be a string: \(event)", file: file, line: line)
        }
        XCTAssertTrue(isUUID(event["event_id"]), file: file, line: line)
        XCTAssertTrue(isUUID(event["customer_id"]), file: file, line: line)
        XCTAssertEqual(event["sequence_id"] as? String, reply["sequence_id"] as? String, file: file, line: line)
    }

    // MARK: - LOGIN_CUSTOMER success

    func testLoginReturnsATokenExpiringAfterTheSeedLifetime() throws {
        let reply = try login("fpi@bk.ru", "123123")
        XCTAssertEqual(reply["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(reply["sequence_id"] as? String, "A29E4FD0-581D-E06B-C837-4F5F4BE7DD18")
        let data = data(reply)
        XCTAssertEqual(Set(data.keys), ["api_token", "api_token_expiration_date"])
        XCTAssertTrue(isUUID(data["api_token"]), "\(data)")
        // ManualClock starts at 1_800_000_000 (2027-01-15T08:00:00Z); the seed lifetime is 86400 s.
        XCTAssertEqual(data["api_token_expiration_date"] as? String, "2027-01-16T08:00:00Z")
    }

    func testExpiryFollowsTheClockExactly() throws {
        server.clock.advance(by: 3661.75)
        let reply = try login("fpi@bk.ru", "123123")
        XCTAssertEqual(data(reply)["api_token_expiration_date"] as? String, "2027-01-16T09:01:01Z")
        let token = try XCTUnwrap(data(reply)["api_token"] as? String)
        XCTAssertTrue(gateway.isIssued(token))
    }

    func testReplyKeysComeInTheDocumentsOrder() {
        let reply = gateway.replyText(to: #"{"type":"LOGIN_CUSTOMER","sequence_id":"s-1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        XCTAssertTrue(reply.hasPrefix(#"{"type":"CUSTOMER_API_TOKEN","sequence_id":"s-1","data":{"api_token":""#), reply)
    }

    func testEveryLoginGetsAFreshToken() throws {
        let first = data(try login("fpi@bk.ru", "123123"))["api_token"] as? String
        let second = data(try login("fpi@bk.ru", "123123"))["api_token"] as? String
        XCTAssertNotNil(first)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(gateway.issuedTokenCount, 2)
        XCTAssertTrue(gateway.isIssued(try XCTUnwrap(first)))
        XCTAssertTrue(gateway.isIssued(try XCTUnwrap(second)))
        XCTAssertFalse(gateway.isIssued("8ece7825-7ac6-4555-adb7-fa02647a0b70"), "a UUID the gateway never issued")
    }

    func testEmailIsCaseInsensitive() throws {
        XCTAssertEqual(try login("FPI@BK.RU", "123123")["type"] as? String, "CUSTOMER_API_TOKEN")
    }

    func testResetForgetsTokens() throws {
        let token = try XCTUnwrap(data(try login("fpi@bk.ru", "123123"))["api_token"] as? String)
        server.app.reset()
        XCTAssertFalse(gateway.isIssued(token))
        XCTAssertEqual(gateway.issuedTokenCount, 0)
        XCTAssertEqual(try login("fpi@bk.ru", "123123")["type"] as? String, "CUSTOMER_API_TOKEN")
    }

    func testTheIssuedCountOutlivesExpiringEveryTokenButNotAReset() throws {
        let token = try XCTUnwrap(data(try login("fpi@bk.ru", "123123"))["api_token"] as? String)
        _ = try login("fpi@bk.ru", "123123")
        XCTAssertEqual(gateway.expireTokens(nil), 2)
        XCTAssertFalse(gateway.isIssued(token))
        _ = try login("fpi@bk.ru", "123123")
        XCTAssertEqual(gateway.issuedTokenCount, 3, "issued since the last reset, expired or not")
        let listed = try server.request("GET", "/__mock/accounts").text
        XCTAssertTrue(listed.contains("; 3 issued to all customers since the last reset"), listed)
        server.app.reset()
        XCTAssertEqual(gateway.issuedTokenCount, 0)
    }

    // MARK: - Sequence ids and framing

    func testMissingSequenceIdGetsAFreshUUID() throws {
        let first = try login("fpi@bk.ru", "123123", sequenceId: nil)
        let second = try login("fpi@bk.ru", "123123", sequenceId: nil)
        XCTAssertEqual(first["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertTrue(isUUID(first["sequence_id"]), "\(first)")
        XCTAssertNotEqual(first["sequence_id"] as? String, second["sequence_id"] as? String)
    }

    func testSequenceIdIsEchoedVerbatimEvenWithCharactersToEscape() throws {
        let odd = "Quote\" back\\slash\nnew line\ttab \u{1} Иван 🚀 </script>"
        let reply = try login("fpi@bk.ru", "123123", sequenceId: odd)
        XCTAssertEqual(reply["sequence_id"] as? String, odd)
        let failed = try login("nobody@bk.ru", "123123", sequenceId: odd)
        XCTAssertEqual(failed["sequence_id"] as? String, odd)
        XCTAssertEqual((data(failed)["in_event"] as? [String: Any])?["sequence_id"] as? String, odd)
    }

    func testBinaryFramesCarryJSONAndGetTextReplies() {
        let json = #"{"type":"LOGIN_CUSTOMER","sequence_id":"bin-1","data":{"email":"fpi@bk.ru","password":"123123"}}"#
        let reply = gateway.reply(to: .binary(Array(json.utf8)))
        guard case .text(let text) = reply else { return XCTFail("reply must be a text frame: \(reply)") }
        let object = JSON.parseObject(Array(text.utf8))
        XCTAssertEqual(object?["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(object?["sequence_id"] as? String, "bin-1")
    }

    func testTextFramesGetTextReplies() {
        let reply = gateway.reply(to: .text("garbage"))
        guard case .text(let text) = reply else { return XCTFail("reply must be a text frame: \(reply)") }
        XCTAssertTrue(text.contains("message.invalid"), text)
    }

    func testPrettyPrintedJSONIsAccepted() {
        let pretty = """
        {
          "type" : "LOGIN_CUSTOMER",
          "sequence_id" : "pretty-1",
          "data" : {
            "email" : "fpi@bk.ru",
            "password" : "123123"
          }
        }
        """
        let reply = send(pretty)
        XCTAssertEqual(reply["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(reply["sequence_id"] as? String, "pretty-1")
    }

    // MARK: - Customer not found

    func testUnknownEmailIsCustomerNotFound() throws {
        let reply = try login("123@gmail.com", "newPassword", sequenceId: "715c13b3-881a-9c97-b853-10be585a9747")
        assertErrorShape(reply, code: "customer.notFound")
        XCTAssertEqual(reply["sequence_id"] as? String, "715c13b3-881a-9c97-b853-10be585a9747")
        let data = data(reply)
        XCTAssertEqual(data["error_description"] as? String, "Customer not found")
        let event = data["in_event"] as? [String: Any] ?? [:]
        XCTAssertEqual(event["type"] as? String, "LOGIN_CUSTOMER")
        XCTAssertEqual(event["email"] as? String, "123@gmail.com")
        XCTAssertEqual(event["password"] as? String, "******")
        XCTAssertNotEqual(event["customer_id"] as? String, CustomerGatewayTests.seededCustomerId)
        XCTAssertNotEqual(event["event_id"] as? String, data["error_uuid"] as? String)
    }

    func testWrongPasswordLooksTheSameAsAnUnknownEmail() throws {
        let reply = try login("fpi@bk.ru", "wrong-password")
        assertErrorShape(reply, code: "customer.notFound")
        XCTAssertEqual(data(reply)["error_description"] as? String, "Customer not found")
        let event = data(reply)["in_event"] as? [String: Any] ?? [:]
        // No stable id that would tell a known e-mail from an unknown one.
        XCTAssertNotEqual(event["customer_id"] as? String, CustomerGatewayTests.seededCustomerId)
        let again = data(try login("fpi@bk.ru", "wrong-password"))["in_event"] as? [String: Any] ?? [:]
        XCTAssertNotEqual(again["customer_id"] as? String, event["customer_id"] as? String)
        XCTAssertEqual(event["password"] as? String, "******")
    }

    func testPasswordsAreNeverEchoed() throws {
        for reply in [gateway.replyText(to: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"fpi@bk.ru","password":"Sup3r-Secret"}}"#),
                      gateway.replyText(to: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"x","password":"Sup3r-Secret"}}"#),
                      gateway.replyText(to: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"password":"Sup3r-Secret"}}"#)] {
            XCTAssertFalse(reply.contains("Sup3r-Secret"), reply)
        }
    }

    func testNoTokenIsStoredOnFailure() throws {
        _ = try login("fpi@bk.ru", "nope")
        _ = try login("", "")
        XCTAssertEqual(gateway.issuedTokenCount, 0)
    }

    // MARK: - Validation errors

    private func fieldErrors(_ reply: [String: Any]) -> [String] {
        (data(reply)["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }

    func testMissingPasswordIsAValidationError() throws {
        let reply = try login("fpi@bk.ru", nil)
        assertErrorShape(reply, type: "CUSTOMER_VALIDATION_ERROR", code: "customer.validation")
        XCTAssertEqual(fieldErrors(reply), ["password"])
        let errors = data(reply)["errors"] as? [[String: Any]] ?? []
        XCTAssertFalse((errors.first?["message"] as? String ?? "").isEmpty)
        XCTAssertEqual((data(reply)["in_event"] as? [String: Any])?["email"] as? String, "fpi@bk.ru")
        XCTAssertEqual((data(reply)["in_event"] as? [String: Any])?["password"] as? String, "")
    }

    func testMissingEmailIsAValidationError() throws {
        let reply = try login(nil, "123123")
        assertErrorShape(reply, type: "CUSTOMER_VALIDATION_ERROR", code: "customer.validation")
        XCTAssertEqual(fieldErrors(reply), ["email"])
        XCTAssertEqual((data(reply)["in_event"] as? [String: Any])?["password"] as? String, "******")
    }

    func testBothMissingGivesOneErrorPerField() throws {
        XCTAssertEqual(fieldErrors(try login(nil, nil)), ["email", "password"])
        XCTAssertEqual(fieldErrors(try login("", "")), ["email", "password"])
        XCTAssertEqual(fieldErrors(try login(5, false)), ["email", "password"])
        XCTAssertEqual(fieldErrors(send(#"{"type":"LOGIN_CUSTOMER","sequence_id":"1"}"#)), ["email", "password"])
        XCTAssertEqual(fieldErrors(send(#"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":null}"#)), ["email", "password"])
    }

    func testInvalidEmailsAreValidationErrors() throws {
        for email in ["fpi", "fpi@", "@bk.ru", "fpi@bk", "fpi@bk.", "fpi@@bk.ru", "f pi@bk.ru", "fpi@bk..ru"] {
            let reply = try login(email, "123123")
            assertErrorShape(reply, type: "CUSTOMER_VALIDATION_ERROR", code: "customer.validation")
            XCTAssertEqual(fieldErrors(reply), ["email"], email)
            XCTAssertEqual((data(reply)["in_event"] as? [String: Any])?["email"] as? String, email)
        }
    }

    func testNonObjectDataIsAnInvalidMessage() {
        let reply = send(#"{"type":"LOGIN_CUSTOMER","sequence_id":"d-1","data":"fpi@bk.ru"}"#)
        assertErrorShape(reply, code: "message.invalid")
        XCTAssertEqual(reply["sequence_id"] as? String, "d-1")
    }

    // MARK: - Malformed messages

    func testGarbageIsAnInvalidMessage() {
        for garbage in ["", "not json", "{\"type\": ", "42", "\"LOGIN_CUSTOMER\"", "[1,2]", "null"] {
            let reply = send(garbage)
            assertErrorShape(reply, code: "message.invalid")
            XCTAssertTrue(isUUID(reply["sequence_id"]), garbage)
        }
        let invalidUTF8 = gateway.reply(to: .binary([0x7B, 0xFF, 0xFE, 0x7D]))
        guard case .text(let text) = invalidUTF8 else { return XCTFail("reply must be text") }
        XCTAssertTrue(text.contains("message.invalid"), text)
    }

    func testMissingTypeIsReported() {
        let reply = send(#"{"sequence_id":"t-1","data":{}}"#)
        assertErrorShape(reply, code: "message.typeMissing")
        XCTAssertEqual(reply["sequence_id"] as? String, "t-1")
        assertErrorShape(send(#"{"sequence_id":"t-2","type":7}"#), code: "message.typeMissing")
        assertErrorShape(send(#"{"sequence_id":"t-3","type":""}"#), code: "message.typeMissing")
    }

    func testUnknownTypeIsReported() {
        let reply = send(#"{"type":"LOGOUT_CUSTOMER","sequence_id":"u-1","data":{}}"#)
        assertErrorShape(reply, code: "message.unknownType")
        XCTAssertEqual(reply["sequence_id"] as? String, "u-1")
        XCTAssertEqual((data(reply)["in_event"] as? [String: Any])?["type"] as? String, "LOGOUT_CUSTOMER")
        XCTAssertTrue((data(reply)["error_description"] as? String ?? "").contains("LOGOUT_CUSTOMER"))
    }

    func testTheDocumentsMisprintedTypeGetsAHint() {
        let reply = send(#"{"type":"LOGIN CUSTOMER","sequence_id":"h-1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        assertErrorShape(reply, code: "message.unknownType")
        XCTAssertTrue((data(reply)["error_description"] as? String ?? "").contains("did you mean \"LOGIN_CUSTOMER\""), "\(reply)")
    }

    func testANumericSequenceIdIsEchoedAsTheSameNumber() {
        let reply = send(#"{"type":"LOGIN_CUSTOMER","sequence_id":42,"data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        XCTAssertEqual(reply["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(reply["sequence_id"] as? Int, 42)
        XCTAssertFalse(reply["sequence_id"] is String)
    }

    // MARK: - Routing and concurrency

    func testTheRouterHandsUpgradesToTheGateway() throws {
        let router = server.app.makeRouter()
        var context = RequestContext()
        guard case .webSocket(let handler) = router.match(HTTPRequest(method: .get, target: "/customer-gateway/customer"), context: &context, isUpgrade: true) else {
            return XCTFail("no WebSocket route at /customer-gateway/customer")
        }
        let replies = handler(.text(#"{"type":"LOGIN_CUSTOMER","sequence_id":"r-1","data":{"email":"fpi@bk.ru","password":"123123"}}"#))
        XCTAssertEqual(replies.count, 1)
        guard case .text(let text) = replies.first else { return XCTFail("reply must be text") }
        XCTAssertEqual(JSON.parseObject(Array(text.utf8))?["sequence_id"] as? String, "r-1")
    }

    func testPlainHTTPGetIsToldToUpgrade() throws {
        let response = try server.request("GET", "/customer-gateway/customer")
        XCTAssertEqual(response.status, 426)
        XCTAssertEqual(response.header("Upgrade"), "websocket")
    }

    func testConcurrentLoginsEachGetTheirOwnReply() {
        let count = 200
        let replies = Locked([String: [String: Any]]())
        let gateway = self.gateway!
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let text = gateway.replyText(to: "{\"type\":\"LOGIN_CUSTOMER\",\"sequence_id\":\"c-\(i)\",\"data\":{\"email\":\"fpi@bk.ru\",\"password\":\"123123\"}}")
            let object = JSON.parseObject(Array(text.utf8)) ?? [:]
            replies.withLock { $0["c-\(i)"] = object }
        }
        let all = replies.withLock { $0 }
        XCTAssertEqual(all.count, count)
        XCTAssertTrue(all.allSatisfy { $0.value["sequence_id"] as? String == $0.key })
        let tokens = Set(all.values.compactMap { ($0["data"] as? [String: Any])?["api_token"] as? String })
        XCTAssertEqual(tokens.count, count)
        XCTAssertEqual(gateway.issuedTokenCount, count)
    }
}

// MARK: - Over a real WebSocket

/// The customer gateway over a real WebSocket connection.
final class CustomerGatewaySocketTests: MockServerTestCase {

    private func connect() throws -> TestWebSocket {
        try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
    }

    private func loginText(_ sequenceId: String, email: String = "fpi@bk.ru", password: String = "123123") -> String {
        "{\"type\":\"LOGIN_CUSTOMER\",\"sequence_id\":\"\(sequenceId)\",\"data\":{\"email\":\"\(email)\",\"password\":\"\(password)\"}}"
    }

    /// Reads one reply, which must be a text frame holding a JSON object.
    private func receiveReply(_ socket: TestWebSocket, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let message = try socket.receiveMessage()
        guard case .text(let text) = message else {
            XCTFail("replies must be text frames, got \(message)", file: file, line: line)
            return [:]
        }
        return try XCTUnwrap(JSON.parseObject(Array(text.utf8)), text, file: file, line: line)
    }

    private func data(_ reply: [String: Any]) -> [String: Any] {
        reply["data"] as? [String: Any] ?? [:]
    }

    func testLoginOverTheSocket() throws {
        let socket = try connect()
        try socket.send(text: loginText("A29E4FD0-581D-E06B-C837-4F5F4BE7DD18"))
        let reply = try receiveReply(socket)
        XCTAssertEqual(reply["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(reply["sequence_id"] as? String, "A29E4FD0-581D-E06B-C837-4F5F4BE7DD18")
        XCTAssertEqual(data(reply)["api_token_expiration_date"] as? String, "2027-01-16T08:00:00Z")
        XCTAssertNotNil(UUID(uuidString: data(reply)["api_token"] as? String ?? ""))
        try socket.close()
        XCTAssertEqual(try socket.receiveClose(), 1000)
    }

    func testManyRequestsInFlightOnOneConnection() throws {
        let socket = try connect()
        let count = 60
        var expected: [String: String] = [:]
        for i in 0..<count {
            let id = UUID().uuidString
            switch i % 3 {
            case 0:
                try socket.send(text: loginText(id))
                expected[id] = "CUSTOMER_API_TOKEN"
            case 1:
                try socket.send(text: loginText(id, email: "nobody@bk.ru"))
                expected[id] = "CUSTOMER_ERROR"
            default:
                try socket.send(text: loginText(id, email: "not-an-address"))
                expected[id] = "CUSTOMER_VALIDATION_ERROR"
            }
        }
        var seen: [String: String] = [:]
        for _ in 0..<count {
            let reply = try receiveReply(socket)
            let id = try XCTUnwrap(reply["sequence_id"] as? String)
            XCTAssertNil(seen[id], "two replies for \(id)")
            seen[id] = reply["type"] as? String
        }
        XCTAssertEqual(seen, expected)
    }

    func testBinaryFramesAreAnsweredInText() throws {
        let socket = try connect()
        try socket.send(binary: Array(loginText("bin-1").utf8))
        let reply = try receiveReply(socket)
        XCTAssertEqual(reply["type"] as? String, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(reply["sequence_id"] as? String, "bin-1")
    }

    func testPrettyPrintedJSON() throws {
        let socket = try connect()
        let pretty = try JSONSerialization.data(withJSONObject: [
            "type": "LOGIN_CUSTOMER", "sequence_id": "pretty-1", "data": ["email": "fpi@bk.ru", "password": "123123"],
        ] as [String: Any], options: [.prettyPrinted])
        try socket.send(text: String(decoding: pretty, as: UTF8.self))
        XCTAssertEqual(try receiveReply(socket)["sequence_id"] as? String, "pretty-1")
        try socket.send(binary: Array(pretty))
        XCTAssertEqual(try receiveReply(socket)["type"] as? String, "CUSTOMER_API_TOKEN")
    }

    func testGarbageBetweenGoodMessagesKeepsTheConnectionOpen() throws {
        let socket = try connect()
        try socket.send(text: loginText("good-1"))
        try socket.send(text: "this is not JSON")
        try socket.send(binary: [0x00, 0x01, 0xFF])
        try socket.send(text: "{\"type\":\"PING_CUSTOMER\",\"sequence_id\":\"odd-1\"}")
        try socket.send(text: loginText("good-2"))
        var replies: [[String: Any]] = []
        for _ in 0..<5 { replies.append(try receiveReply(socket)) }
        let codes = replies.map { data($0)["error_code"] as? String ?? $0["type"] as? String ?? "?" }
        XCTAssertEqual(codes.sorted(), ["CUSTOMER_API_TOKEN", "CUSTOMER_API_TOKEN", "message.invalid", "message.invalid",
                                        "message.unknownType"])
        let goodIds = replies.filter { $0["type"] as? String == "CUSTOMER_API_TOKEN" }.compactMap { $0["sequence_id"] as? String }
        XCTAssertEqual(Set(goodIds), ["good-1", "good-2"])
        // Still open and still answering.
        try socket.send(text: loginText("good-3"))
        XCTAssertEqual(try receiveReply(socket)["sequence_id"] as? String, "good-3")
    }

    func testSeveralConnectionsAtOnce() throws {
        let sockets = try (0..<8).map { _ in try connect() }
        for (i, socket) in sockets.enumerated() { try socket.send(text: loginText("conn-\(i)")) }
        for (i, socket) in sockets.enumerated() {
            XCTAssertEqual(try receiveReply(socket)["sequence_id"] as? String, "conn-\(i)")
        }
    }
}
