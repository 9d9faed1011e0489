import EmulationKit
import GatewaySystem
import HTTPServer
import MockControl
import MockTestSupport
import XCTest

/// A gateway message is read once: while message rules are set the control plane reads it with
/// the gateway's vocabulary and hands that reading to the gateway's handler instead of the
/// endpoint's own `onMessage` (which would read it again); without rules the endpoint reads it.
final class MessageReadingTests: MockServerTestCase {
    private let login = #"{"type":"LOGIN_CUSTOMER","sequence_id":42,"data":{"email":"fpi@bk.ru","password":"123123"}}"#

    /// The endpoint at the gateway's path, wrapped by the plane, recording which entry point ran.
    private func wrapped(_ calls: Locked<[String]>) -> WebSocketEndpoint {
        let endpoint = WebSocketEndpoint(onMessage: { _, _ in
            calls.withLock { $0.append("onMessage") }
            return .none
        })
        return server.app.control.webSocketEndpoint(endpoint, at: CustomerGateway.path, handler: { reading, _ in
            calls.withLock { $0.append("handler \(reading.type ?? "-") \(reading.idText ?? "-")") }
            return .none
        })
    }

    func testWithAMessageRuleTheHandlerGetsThePlanesReading() throws {
        // A rule on another type: it does not fire, but the plane must read every message's type.
        _ = try server.addFault(["system": "gateway", "path": "LOGOUT_CUSTOMER", "action": ["noReply": true]])
        let calls = Locked<[String]>([])
        _ = wrapped(calls)(.text(login))
        XCTAssertEqual(calls.withLock { $0 }, ["handler LOGIN_CUSTOMER 42"])
        let entry = try server.journal("system=gateway").last
        XCTAssertEqual(entry?["path"] as? String, "LOGIN_CUSTOMER", "the journal shows the type the plane read")
    }

    func testWithoutMessageRulesTheEndpointReadsItself() {
        let calls = Locked<[String]>([])
        _ = wrapped(calls)(.binary(Array(login.utf8)))
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
        let gateway = try XCTUnwrap(server.app.system(named: CustomerGateway.name) as? CustomerGateway)
        XCTAssertNotNil(gateway.messageHandler(at: CustomerGateway.path))
        XCTAssertNil(gateway.messageHandler(at: "/customer-gateway/other"))
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
