import Foundation
import Testing
import MockServerKit
import RegistrationExample

/// Runs `body` with a mock of its own on a free port, stopped when `body` returns or throws.
/// Swift Testing runs tests in parallel, so every test gets its own server and seed.
func withMockServer<T>(_ body: (EmbeddedMockServer) async throws -> T) async throws -> T {
    let mock = try EmbeddedMockServer()
    defer { mock.stop() }
    return try await body(mock)
}

/// The XCTest example's registration, with Swift Testing: one server per test, no shared state.
@Suite struct RegistrationSwiftTesting {
    @Test func registrationWithTheSMSCode() async throws {
        try await withMockServer { mock in
            let client = MusbookingClient(baseURL: mock.baseURL)
            try await client.requestCode(phone: "+7 (912) 345-67-89")
            let code = try #require(mock.sms(phone: "9123456789").last?.code)   // the outbox, in-process
            let login = try await client.register(name: "Иван", phone: "89123456789", code: code, password: "secret1")
            #expect(login == "9123456789")
            #expect(try await !client.login(login, password: "secret1").isEmpty)
        }
    }

    /// Run in parallel: each argument gets a fresh mock, so the same phone registers in each.
    @Test(arguments: ["secret1", "secret2"])
    func eachTestHasItsOwnServer(password: String) async throws {
        try await withMockServer { mock in
            #expect(mock.sms().isEmpty, "a fresh seed")
            let client = MusbookingClient(baseURL: mock.baseURL)
            try await client.requestCode(phone: "9123456789")
            let sms = try await mock.admin.waitForSMS(to: "9123456789", new: false, timeout: 5)
            let code = try #require(sms.code)
            #expect(try await client.register(name: "Иван", phone: "9123456789", code: code, password: password) == "9123456789")
        }
    }
}

#if compiler(>=6.1)
/// The same as a trait (Swift 6.1 / Xcode 16.3 and newer have `TestScoping`): `@Test(.mockServer)`
/// starts a server around the test and `MockServerTrait.current` is that test's server.
struct MockServerTrait: TestTrait, TestScoping {
    @TaskLocal static var current: EmbeddedMockServer?

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let mock = try EmbeddedMockServer()
        defer { mock.stop() }
        try await MockServerTrait.$current.withValue(mock) { try await function() }
    }
}

extension Trait where Self == MockServerTrait {
    /// A mock server of its own for this test, at `MockServerTrait.current`.
    static var mockServer: Self { Self() }
}

@Suite struct RegistrationWithTheTrait {
    @Test(.mockServer) func signInWithTheSeedAccount() async throws {
        let mock = try #require(MockServerTrait.current)
        let client = MusbookingClient(baseURL: mock.baseURL)
        try await client.requestCode(phone: "9123456789")
        #expect(mock.sms(phone: "9123456789").count == 1)
    }
}
#endif
