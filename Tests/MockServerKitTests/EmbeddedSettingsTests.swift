import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import MockServerKit
import TestSupport

/// The command line's settings on an embedded server, each in one line.
final class EmbeddedSettingsTests: XCTestCase {
    private func post(_ url: URL, form: String) async throws -> Int {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(form.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    func testAnSMSCodeInOneLine() async throws {
        let server = try EmbeddedMockServer(smsCode: "1234")
        defer { server.stop() }
        let status = try await post(server.baseURL.appendingPathComponent("api/users/sms"), form: "phone=9123456789")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(server.sms(phone: "9123456789").last?.code, "1234")
    }

    func testASettingTheCommandLineWouldRefuseIsRefusedByName() {
        XCTAssertThrowsError(try EmbeddedMockServer(smsCode: "12a4")) { error in
            XCTAssertTrue("\(error)".contains("smsCode must be 1 to 9 digits"), "\(error)")
        }
        XCTAssertThrowsError(try EmbeddedMockServer(.init(systemSettings: ["maxPendingSMSCode": "5"]))) { error in
            XCTAssertTrue("\(error)".contains("no system setting \"maxPendingSMSCode\""), "\(error)")
        }
        XCTAssertThrowsError(try EmbeddedMockServer(clockOffset: .infinity))
    }

    func testAClockOffsetMovesTheMocksTimeAndSurvivesAReset() async throws {
        let server = try EmbeddedMockServer(clockOffset: 86_400)
        defer { server.stop() }
        let before = try await server.admin.clock()
        XCTAssertEqual(before.offsetSeconds, 0, "the offset is the start, not an advance a reset undoes")
        let now = before.now
        XCTAssertGreaterThan(now.timeIntervalSinceNow, 86_400 - 3_600)
        server.reset()
        let afterReset = try await server.admin.clock()
        let after = afterReset.now
        XCTAssertGreaterThan(after.timeIntervalSinceNow, 86_400 - 3_600)
    }

    func testAStateFileKeepsAnAccountAcrossServers() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-state-\(UUID().uuidString).json").path
        defer {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
            where file.hasPrefix((path as NSString).lastPathComponent) {
                try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(file).path)
            }
        }
        let first = try EmbeddedMockServer(statePath: path)
        _ = try await first.admin.createAccount(system: "musbooking", fields: ["phone": "9120000777", "password": "pass123"])
        first.stop()
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let second = try EmbeddedMockServer(statePath: path)
        defer { second.stop() }
        let status = try await post(second.baseURL.appendingPathComponent("api/auth/login"), form: "login=9120000777&password=pass123")
        XCTAssertEqual(status, 200, "the account made on the first server is in the file the second one loads")
    }
}
