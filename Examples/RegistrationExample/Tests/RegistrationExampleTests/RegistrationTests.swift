import XCTest
import MockServerKit
import RegistrationExample

/// The whole mock in this test process: a musbooking registration with the SMS code read
/// through the admin API, as a UI test in another process would.
final class RegistrationTests: XCTestCase {
    func testRegistrationWithTheSMSCode() async throws {
        let mock = try EmbeddedMockServer()          // bundled seed, 127.0.0.1, a free port
        defer { mock.stop() }
        let client = MusbookingClient(baseURL: mock.baseURL)

        try await client.requestCode(phone: "+7 (912) 345-67-89")
        let sms = try await mock.admin.waitForSMS(to: "9123456789", new: false, timeout: 5)
        let code = try XCTUnwrap(sms.code)

        let login = try await client.register(name: "Иван", phone: "89123456789", code: code, password: "secret1")
        XCTAssertEqual(login, "9123456789")
        let token = try await client.login(login, password: "secret1")
        XCTAssertFalse(token.isEmpty)

        mock.reset()
        XCTAssertEqual(mock.sms(), [])
    }
}
