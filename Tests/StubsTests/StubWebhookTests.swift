import Foundation
import HTTPServer
import MockTestSupport
@testable import Stubs
import TestSupport
import XCTest

/// `postServeActions` webhooks, received by a loopback server the test starts.
final class StubWebhookTests: MockServerTestCase {
    private var receivers: [LoopbackUpstream] = []

    override func tearDown() {
        for receiver in receivers { receiver.stop() }
        receivers = []
        super.tearDown()
    }

    private func receiver(_ action: LoopbackUpstream.Action = .send(LoopbackUpstream.response("204 No Content"))) throws -> LoopbackUpstream {
        let made = try LoopbackUpstream { _ in action }
        receivers.append(made)
        return made
    }

    func testTheListFormIsSentAfterTheAnswerWithItsFieldsTemplated() throws {
        let hook = try receiver()
        let mapping = #"{"request": {"method": "POST", "urlPath": "/order"}, "response": {"body": "answered"}, "postServeActions": [{"name": "webhook", "parameters": {"method": "PUT", "url": "http://127.0.0.1:\#(hook.port)/hook?from={{originalRequest.query.id}}", "headers": {"X-Path": "{{originalRequest.path}}", "Content-Type": "text/plain"}, "body": "got {{{originalRequest.body}}}"}}]}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: mapping).status, 201)
        let response = try server.request("POST", "/order?id=7", body: Array("hi & bye".utf8))
        XCTAssertEqual(response.text, "answered")
        XCTAssertTrue(hook.waitForRequests(1))
        let seen = try XCTUnwrap(hook.requests.first)
        XCTAssertEqual(seen.requestLine, "PUT /hook?from=7 HTTP/1.1")
        XCTAssertEqual(seen.header("X-Path"), "/order")
        XCTAssertEqual(seen.header("Host"), "127.0.0.1:\(hook.port)")
        XCTAssertEqual(String(decoding: seen.body, as: UTF8.self), "got hi & bye")
        let shown = try XCTUnwrap(try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]])
        XCTAssertNotNil(shown.first?["postServeActions"], "the mapping is shown as given")
    }

    func testTheMapFormWithABinaryBodyAndADelayAndAReceiverThatNeverAnswers() throws {
        let silent = try receiver(.silent)
        let mapping = #"{"request": {"url": "/fire"}, "response": {"status": 202}, "postServeActions": {"webhook": {"method": "POST", "url": "http://127.0.0.1:\#(silent.port)/in", "base64Body": "AAEC/w==", "delay": {"type": "fixed", "milliseconds": 5}}}}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: mapping).status, 201)
        // The answer does not wait for a webhook, even one whose receiver never answers.
        XCTAssertEqual(try server.request("GET", "/fire").status, 202)
        XCTAssertTrue(silent.waitForRequests(1))
        XCTAssertEqual(silent.requests.first?.body, [0, 1, 2, 255])
        XCTAssertEqual(silent.requests.first?.requestLine, "POST /in HTTP/1.1")
    }

    func testOutboundControlAppliesToWebhooks() throws {
        let hook = try receiver()
        let limited = try TestServer(configure: { $0.outbound.policy = .hosts(["localhost"]) })
        // In order: the refused one is decided before the allowed one connects.
        let mapping = #"{"request": {"url": "/a"}, "postServeActions": [{"name": "webhook", "parameters": {"url": "http://127.0.0.1:\#(hook.port)/refused"}}, {"name": "webhook", "parameters": {"url": "http://localhost:\#(hook.port)/allowed"}}]}"#
        XCTAssertEqual(try limited.request("POST", "/__admin/mappings", jsonText: mapping).status, 201)
        XCTAssertEqual(try limited.request("GET", "/a").status, 200)
        XCTAssertTrue(hook.waitForRequests(1))
        XCTAssertEqual(hook.requests.map(\.requestLine), ["GET /allowed HTTP/1.1"], "127.0.0.1 is not in --outbound")
        XCTAssertEqual(hook.requests.first?.header("Host"), "localhost:\(hook.port)")
    }

    func testWhatAWebhookCannotDoIsRefusedAtLoad() throws {
        for (actions, pointer) in [(#"[{"name": "webhook", "parameters": {"url": "ftp://hooks.test/x"}}]"#, "/postServeActions/0/parameters/url"),
                                   (#"[{"name": "webhook", "parameters": {"url": "http://h/x", "extraParameters": {}}}]"#, "/postServeActions/0/parameters/extraParameters"),
                                   (#"{"webhook": {"url": "http://h/x", "delay": {"type": "chunked"}}}"#, "/postServeActions/webhook/delay/type"),
                                   (#"{"webhook": {"url": "http://h/{{originalResponse.body}}"}}"#, "/postServeActions/webhook/url"),
                                   (#""webhook""#, "/postServeActions")] {
            let response = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/r"}, "postServeActions": \#(actions)}"#)
            XCTAssertEqual(response.status, 422, actions)
            XCTAssertTrue(response.text.contains(pointer), "\(actions): \(response.text)")
        }
        XCTAssertEqual(StubWebhook.originalRequestAsRequest("a originalRequest.x {{originalRequest.path}} {{{originalRequest.body}}}"),
                       "a originalRequest.x {{request.path}} {{{request.body}}}")
    }
}
