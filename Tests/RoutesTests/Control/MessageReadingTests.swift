import EmulationKit
import GatewaySystem
import HTTPServer
import MockControl
import MockTestSupport
import XCTest

/// A gateway message is read once: while message rules are set the fault stage reads it with
/// the gateway's vocabulary and leaves that reading in the message's context, which the
/// endpoint answers from (rather than reading it again); without rules the endpoint reads it.
final class MessageReadingTests: MockServerTestCase {
    private let login = #"{"type":"LOGIN_CUSTOMER","sequence_id":42,"data":{"email":"fpi@bk.ru","password":"123123"}}"#

    /// An endpoint on the gateway's path behind the app's stages, recording whether it was
    /// given a reading.
    private func wrapped(_ calls: Locked<[String]>, _ message: WebSocketMessage) throws {
        let endpoint = WebSocketEndpoint(onMessage: { _, context in
            calls.withLock { $0.append(context.reading.map { "reading \($0.type ?? "-") \($0.idText ?? "-")" } ?? "onMessage") }
            return .none
        })
        let pipeline = try XCTUnwrap(server.app.makeResponder().pipeline)
        _ = endpoint(message, through: pipeline, owner: RouteOwner(group: 0, name: CustomerGateway.name, role: .system))
    }

    func testWithAMessageRuleTheEndpointGetsTheFaultStagesReading() throws {
        // A rule on another type: it does not fire, but the plane must read every message's type.
        _ = try server.addFault(["system": "gateway", "path": "LOGOUT_CUSTOMER", "action": ["noReply": true]])
        let calls = Locked<[String]>([])
        try wrapped(calls, .text(login))
        XCTAssertEqual(calls.withLock { $0 }, ["reading LOGIN_CUSTOMER 42"])
        let entry = try server.journal("system=gateway").last
        XCTAssertEqual(entry?["path"] as? String, "LOGIN_CUSTOMER", "the journal shows the type the plane read")
    }

    func testWithoutMessageRulesTheEndpointReadsItself() throws {
        let calls = Locked<[String]>([])
        try wrapped(calls, .binary(Array(login.utf8)))
        XCTAssertEqual(calls.withLock { $0 }, ["onMessage"])
    }

    func testTheGatewaysVocabulary() throws {
        let reading = try XCTUnwrap(CustomerGateway.readMessage(Array(#"{"type":"X","sequence_id":"s-1"}"#.utf8)))
        XCTAssertEqual(reading.type, "X")
        XCTAssertEqual(reading.idText, "s-1")
        let notJSON = try XCTUnwrap(CustomerGateway.readMessage(Array("garbage".utf8)))
        XCTAssertNil(notJSON.json)
        XCTAssertNil(notJSON.type)
        XCTAssertNil(try XCTUnwrap(CustomerGateway.readMessage(Array(#"{"sequence_id":null}"#.utf8))).idText)
    }

    /// The placeholder is replaced on the reply's bytes: every occurrence by the same value.
    func testAScriptedReplyFillsEveryPlaceholderWithOneValue() throws {
        func scripted(_ text: String, _ message: String) throws -> String {
            let reading = try XCTUnwrap(CustomerGateway.readMessage(Array(message.utf8)))
            return String(decoding: CustomerGateway.scriptedReply(Array(text.utf8), to: reading, random: SeededRandomSource(seed: 1)), as: UTF8.self)
        }
        XCTAssertEqual(try scripted(#"[{{sequence_id}},"é{{sequence_id}}"]"#, #"{"sequence_id":7}"#), #"[7,"é7"]"#)
        XCTAssertEqual(try scripted(#"{"a":"{{sequence_id}"}"#, #"{"sequence_id":7}"#), #"{"a":"{{sequence_id}"}"#, "no whole placeholder")
        let fresh = try scripted("{{sequence_id}}|{{sequence_id}}", "{}").split(separator: "|")
        XCTAssertEqual(fresh.count, 2)
        XCTAssertEqual(fresh[0], fresh[1], "one fresh id for both")
        XCTAssertEqual(fresh[0].count, 38, "a quoted UUID")
    }
}
