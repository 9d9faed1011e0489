import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import MockServerKit
import TestSupport

/// The library a consumer's tests use: start in-process, talk to it over HTTP, read the outbox
/// directly and through the admin client, reset, stop.
final class EmbeddedMockServerTests: XCTestCase {
    private func post(_ url: URL, form: String) async throws -> (Int, String) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(form.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func testStartsOnAFreePortWithTheBundledSeedAndAnswersHealth() async throws {
        let server = try EmbeddedMockServer()
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        let healthy = await server.admin.health()
        XCTAssertTrue(healthy)
    }

    func testMusbookingRegistrationWithTheCodeReadThroughTheAdminClient() async throws {
        let server = try EmbeddedMockServer()
        defer { server.stop() }
        let admin = server.admin
        let (smsStatus, _) = try await post(server.baseURL.appendingPathComponent("api/users/sms"), form: "phone=%2B7+912+345-67-89")
        XCTAssertEqual(smsStatus, 200)
        let sms = try await admin.waitForSMS(to: "89123456789", new: false, timeout: 5)
        let code = try XCTUnwrap(sms.code)
        XCTAssertEqual(sms.phone, "9123456789")
        XCTAssertEqual(server.sms(phone: "9123456789").last?.code, code, "the in-process outbox and the admin API agree")
        let latest = try await admin.latestCode(phone: "9123456789")
        XCTAssertEqual(latest, code)
        let (status, body) = try await post(server.baseURL.appendingPathComponent("api/users/register"),
                                            form: "name=Ivan&phone=9123456789&code=\(code)&password=secret1")
        XCTAssertEqual(status, 200, body)
        XCTAssertTrue(body.contains("\"login\":\"9123456789\""), body)
    }

    func testResetEmptiesTheOutboxBothWays() async throws {
        let server = try EmbeddedMockServer()
        defer { server.stop() }
        _ = try await post(server.baseURL.appendingPathComponent("api/users/sms"), form: "phone=9550001122")
        XCTAssertEqual(server.sms().count, 1)
        server.reset()
        XCTAssertEqual(server.sms(), [])
        _ = try await post(server.baseURL.appendingPathComponent("api/users/sms"), form: "phone=9550001122")
        let before = try await server.admin.sms()
        XCTAssertEqual(before.count, 1)
        try await server.admin.reset()
        XCTAssertEqual(server.sms(), [])
        let emails = try await server.admin.emails()
        XCTAssertEqual(emails, [])
    }

    func testWaitForSMSGivesUpAtItsDeadline() async throws {
        let server = try EmbeddedMockServer()
        defer { server.stop() }
        do {
            _ = try await server.admin.waitForSMS(to: "9000000000", timeout: 0.2)
            XCTFail("no SMS was sent, yet the wait returned")
        } catch let failure as MockAdminClient.Failure {
            XCTAssertTrue(failure.description.contains("9000000000"), failure.description)
        }
    }

    func testAGivenSeedIsUsedAndABadOneNamesItsSource() async throws {
        XCTAssertThrowsError(try EmbeddedMockServer(seed: .json("{\"rows\": }"))) { error in
            XCTAssertTrue("\(error)".contains("seed JSON"), "\(error)")
        }
        let seed = EmbeddedMockServer.bundledSeedJSON.replacingOccurrences(of: "\"1234567\"", with: "\"7654321\"")
        XCTAssertNotEqual(seed, EmbeddedMockServer.bundledSeedJSON)
        let server = try EmbeddedMockServer(seed: .json(seed))
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("auth/login"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"email":"johndown@exmample.com","password":"7654321"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
    }

    func testStopClosesThePort() async throws {
        let server = try EmbeddedMockServer()
        let url = server.baseURL.appendingPathComponent("__mock/health")
        server.stop()
        let admin = MockAdminClient(baseURL: url.deletingLastPathComponent().deletingLastPathComponent())
        let healthy = await admin.health()
        XCTAssertFalse(healthy)
    }

    /// A server released without stop() (a test that threw before its tear-down) stops by itself.
    func testAServerLetGoOfWithoutStopStopsAndClosesItsPort() async throws {
        weak var released: EmbeddedMockServer?
        let (inner, baseURL) = try {
            let server = try EmbeddedMockServer()
            released = server
            return (server.server, server.baseURL)
        }()
        XCTAssertNil(released, "nothing else holds it")
        let stopped = DispatchSemaphore(value: 0)
        Thread { inner.waitUntilStopped(); stopped.signal() }.start()
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "its loops ended without stop()")
        let healthy = await MockAdminClient(baseURL: baseURL).health()
        XCTAssertFalse(healthy, "the port is closed")
    }

    /// The instances a released server started (`POST /__mock/instances`) stop with it: an idle
    /// connection to one is closed by the instance, not left to a server nobody can reach.
    func testAServerLetGoOfWithoutStopAlsoStopsItsInstances() async throws {
        weak var released: EmbeddedMockServer?
        var server: EmbeddedMockServer? = try EmbeddedMockServer()
        released = server
        let instance = try await XCTUnwrap(server?.admin).createInstance()
        let client = try TestHTTPClient(port: instance.port, timeout: 10)
        try client.sendRequest("GET", "/__mock/health")
        XCTAssertEqual(try client.readResponse().status, 200, "the instance answers, and keeps the connection")
        server = nil
        XCTAssertNil(released, "nothing else holds it")
        XCTAssertTrue(client.isClosedByPeer(), "the instance closed its connection when its parent was released")
    }

    /// `localhost` is both loopbacks: macOS resolves it to ::1 first, an app may be told 127.0.0.1.
    func testLocalhostAnswersOnIPv4AndIPv6Loopback() async throws {
        let server = try EmbeddedMockServer(host: "localhost")
        defer { server.stop() }
        XCTAssertEqual(server.baseURL.absoluteString, "http://localhost:\(server.port)")
        let viaIPv4 = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)"))
        let healthy = await MockAdminClient(baseURL: viaIPv4).health()
        XCTAssertTrue(healthy, "127.0.0.1")
        // swift-corelibs-foundation's URLSession refuses IPv6 literal hosts (NSURLErrorDomain
        // -1000), so ::1 is asked over a plain socket; Darwin's URLSession takes [::1] too.
        let client = try TestHTTPClient(host: "::1", port: server.port)
        try client.sendRequest("GET", "/__mock/health")
        XCTAssertEqual(try client.readResponse().status, 200, "::1")
        #if canImport(Darwin)
        let viaIPv6 = try XCTUnwrap(URL(string: "http://[::1]:\(server.port)"))
        let healthyOverIPv6 = await MockAdminClient(baseURL: viaIPv6).health()
        XCTAssertTrue(healthyOverIPv6, "[::1] through URLSession")
        #endif
    }

    /// Parallel UI-test clones each start their own server on port 0 and launch their app with it.
    func testLaunchEnvironmentCarriesEachServersBaseURLToTheApp() throws {
        let one = try EmbeddedMockServer(), two = try EmbeddedMockServer()
        defer { one.stop(); two.stop() }
        XCTAssertNotEqual(one.port, two.port)
        let environment = one.launchEnvironment()
        XCTAssertEqual(environment, ["API_BASE_URL": "http://127.0.0.1:\(one.port)"])
        XCTAssertEqual(MockLaunchEnvironment.baseURL(in: environment), one.baseURL, "what the app reads back")
        XCTAssertEqual(two.launchEnvironment(key: "MOCK_URL"), ["MOCK_URL": two.baseURL.absoluteString])
        XCTAssertEqual(two.admin.launchEnvironment(key: "MOCK_URL"), two.launchEnvironment(key: "MOCK_URL"))
        XCTAssertNil(MockLaunchEnvironment.baseURL(in: [:]), "a normal launch")
        XCTAssertNil(MockLaunchEnvironment.baseURL(in: ["API_BASE_URL": "127.0.0.1:8080"]), "not an absolute URL")
    }
}
