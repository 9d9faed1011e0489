import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import GatewaySystem
@testable import StatePersistence

/// Issue 20 §3 for WebSocket replies, over real sockets: a reply to a message that changed state
/// arrives only once the change is in the state file, and replies keep their order behind it.
///
/// No gateway message changes stored state today (LOGIN_CUSTOMER issues signed tokens it does
/// not keep), so a test endpoint makes the change a registration would: it adds a gateway
/// customer, as `POST /__mock/accounts` does, and is wrapped by the same gate as the gateway.
final class DurableWebSocketTests: TemporaryDirectoryTestCase {
    private var mock: TestServer?
    private var persistence: MockPersistence?
    private var server: Server?

    /// The mock under `--state`, and a second server whose `/register` endpoint adds the
    /// customer a text message names (`ping` changes nothing), behind the durability gate.
    private func start(log: Logger = .silent) throws -> (port: Int, store: StateStore, gateway: CustomerGateway) {
        let mock = try TestServer(logger: log)
        let persistence = try MockPersistence.start(app: mock.app, server: mock.server, statePath: statePath,
                                                    watchSeed: nil, logger: log)
        let store = try XCTUnwrap(persistence.store)
        let gateway = try XCTUnwrap(mock.app.system(named: CustomerGateway.name) as? CustomerGateway)
        var router = Router()
        router.webSocket("/register") { message in
            guard case .text(let email) = message, email != "ping" else { return [.text("pong")] }
            _ = gateway.accounts.add(email, CustomerGatewaySeed.Account(customerId: "id-\(email)", email: email, password: "secret1"))
            gateway.tokens.keyChanges.changed()
            return [.text("registered \(email)")]
        }
        let gate = DurabilityGate(store: store)
        let stage = DurabilityStage(gate) { _, message, reason in gateway.stateRefusal(to: message, reason: reason) ?? "" }

        var config = ServerConfiguration()
        config.host = "127.0.0.1"
        config.port = 0
        config.eventLoops = 1
        config.shutdownGrace = 1
        let server = Server(configuration: config, responder: Responder(router: router, pipeline: Pipeline(stage)), logger: log)
        try server.start()
        self.mock = mock
        self.persistence = persistence
        self.server = server
        return (server.port, store, gateway)
    }

    override func tearDown() {
        server?.shutdown()
        server?.waitUntilStopped()
        persistence?.close()
        mock?.stop()
        super.tearDown()
    }

    private func inFile(_ email: String) throws -> Bool {
        let gateway = try stateSystems(statePath)["gateway"] ?? [:]
        return String(decoding: try JSONSerialization.data(withJSONObject: gateway), as: UTF8.self).contains(email)
    }

    private func text(_ message: WebSocketMessage) -> String {
        if case .text(let text) = message { return text }
        return "(binary)"
    }

    func testAReplyAfterAChangeArrivesOnceTheChangeIsInTheFileAndRepliesKeepTheirOrder() throws {
        let (port, _, _) = try start()
        let socket = try TestWebSocket(port: port, path: "/register")
        // Sent together: each `ping` is answered at once by its handler, yet must wait behind
        // the registration before it.
        for message in ["b@example.com", "ping", "c@example.com", "ping", "d@example.com"] { try socket.send(text: message) }
        var replies: [String] = []
        for _ in 0..<5 {
            let reply = text(try socket.receiveMessage())
            replies.append(reply)
            if reply.hasPrefix("registered ") {
                // Read at once, no waiting: the reply came after the write.
                let email = String(reply.dropFirst("registered ".count))
                XCTAssertTrue(try inFile(email), "\(email) answered before it was in the state file")
            }
        }
        XCTAssertEqual(replies, ["registered b@example.com", "pong", "registered c@example.com", "pong", "registered d@example.com"])
    }

    func testAChangeThatCannotBeWrittenIsACustomerErrorInOrderAndHealthIsDegraded() throws {
        let log = LogCapture()
        let (port, store, _) = try start(log: log.logger)
        store.logged.simulatedFailure.withLock { $0 = "No space left on device" }
        let socket = try TestWebSocket(port: port, path: "/register")
        try socket.send(text: "e@example.com")
        try socket.send(text: "ping")
        // The refusal needs the writer's failed write; the pong was ready at once, and still comes second.
        let refusal = try XCTUnwrap(JSONValue.parse(text(try socket.receiveMessage())))
        XCTAssertEqual(refusal["type"]?.string, "CUSTOMER_ERROR")
        XCTAssertEqual(refusal["data"]?["error_code"]?.string, "server.stateNotSaved")
        XCTAssertTrue(refusal["data"]?["error_description"]?.string?.contains("No space left on device") ?? false,
                      refusal.jsonText)
        XCTAssertEqual(text(try socket.receiveMessage()), "pong")
        XCTAssertTrue(log.contains("server.stateNotSaved"), "a log line says so: \(log.all)")
        let mock = try XCTUnwrap(self.mock)
        XCTAssertEqual(try mock.request("GET", "/__mock/health").jsonObject?["status"] as? String, "degraded")
        store.logged.simulatedFailure.withLock { $0 = nil }
        try socket.send(text: "f@example.com")
        XCTAssertEqual(text(try socket.receiveMessage()), "registered f@example.com")
        XCTAssertTrue(try inFile("e@example.com"), "the refused change stayed in memory and is written now")
        XCTAssertTrue(try inFile("f@example.com"))
    }

    func testTheGatewayUnderStateStillAnswersALoginAtOnce() throws {
        _ = try start()
        let mock = try XCTUnwrap(self.mock)
        let socket = try TestWebSocket(port: mock.port, path: CustomerGateway.path)
        let account = try XCTUnwrap(mock.app.seed.customerGateway.accounts.first)
        try socket.send(text: "{\"type\":\"LOGIN_CUSTOMER\",\"sequence_id\":\"s1\",\"data\":{\"email\":\"\(account.email)\",\"password\":\"\(account.password)\"}}")
        let reply = try XCTUnwrap(JSONValue.parse(text(try socket.receiveMessage())))
        XCTAssertEqual(reply["type"]?.string, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(reply["sequence_id"]?.string, "s1")
    }
}
