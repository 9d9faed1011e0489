import Foundation
import XCTest
@testable import Routes
import MockTestSupport
import TestSupport
@testable import MusbookingSystem

/// A seed may leave sections out (they come from the bundled seed); a key nothing reads is refused
/// with its path and a hint: on the command line, and over HTTP with `X-Mock-Hint`.
final class PartialSeedTests: XCTestCase {
    private func refusal(_ json: String) -> SeedError? {
        do {
            _ = try Seed.decode(Data(json.utf8), source: "my-seed.json")
            return nil
        } catch {
            return error as? SeedError
        }
    }

    func testASectionLeftOutComesFromTheBundledSeed() throws {
        let seed = try Seed.decode(Data(#"{"rows": {"accounts": [{"email": "a@b.c", "password": "x"}], "totalRows": 5, "pageSize": 2, "textSeed": 1}}"#.utf8), source: "partial")
        XCTAssertEqual(seed.rows.accounts.map(\.email), ["a@b.c"])
        XCTAssertEqual(seed.rows.totalRows, 5)
        XCTAssertEqual(seed.customerGateway.accounts.first?.email, "fpi@bk.ru", "the gateway section is the bundled one")
        XCTAssertEqual(try Seed.decode(Data("{}".utf8), source: "empty").customerGateway.accounts.count,
                       try Seed.bundled().customerGateway.accounts.count)
    }

    func testAnUnknownKeyIsRefusedWithItsPathAndTheKeysThere() throws {
        let error = try XCTUnwrap(refusal(#"{"rows": {"accounts": [{"email": "a@b.c", "passwrd": "x", "password": "x"}], "totalRows": 5, "pageSize": 2, "textSeed": 1}}"#))
        XCTAssertTrue(error.description.hasPrefix("my-seed.json: at rows.accounts[0].passwrd: unknown key"), error.description)
        XCTAssertTrue(error.description.contains("email, password"), error.description)
        XCTAssertNotNil(error.hint)
        let topLevel = try XCTUnwrap(refusal(#"{"skyzon": {}}"#))
        XCTAssertTrue(topLevel.description.hasPrefix("my-seed.json: at skyzon: unknown key"), topLevel.description)
        XCTAssertTrue(topLevel.description.contains("skyzone"), "the keys that exist are listed: \(topLevel.description)")
        let setting = try XCTUnwrap(refusal(#"{"settings": {"smsCod": "1234"}}"#))
        XCTAssertTrue(setting.description.contains("at settings.smsCod: unknown key"), setting.description)
    }

    /// The README's example: `pasword` for `password` is named as the typo, not only as the key
    /// that is then missing.
    func testAMisspeltRequiredKeyIsNamedNotOnlyTheMissingOne() throws {
        let error = try XCTUnwrap(refusal(#"{"rows": {"accounts": [{"email": "a@b.c", "pasword": "x"}], "totalRows": 5, "pageSize": 2, "textSeed": 1}}"#))
        XCTAssertEqual(error.description, "my-seed.json: at rows.accounts[0].pasword: unknown key (keys there: email, password)")
        XCTAssertEqual(error.hint, "check its spelling: \"password\" is missing there")
    }

    func testAMissingKeyInsideASectionSaysSectionsAreWholeOrLeftOut() throws {
        let error = try XCTUnwrap(refusal(#"{"rsschool": {"login": "a", "password": "b"}}"#))
        XCTAssertTrue(error.description.contains("at rsschool: missing key \"secureSequence\""), error.description)
        XCTAssertTrue(error.hint?.contains("leave it out") ?? false, error.hint ?? "no hint")
    }

    func testFreeFormFieldsStayFree() throws {
        // A musbooking category is served as written: its fields are data, not seed keys.
        let seed = try Seed.decode(Data(#"{"musbooking": {"categories": [{"id": 7, "anything": {"goes": [1]}}]}}"#.utf8), source: "categories")
        XCTAssertEqual(seed.musbooking.categories.map(\.id), [7])
    }

    func testTheExecutableRefusesAnUnknownKeyWithExitCode65AndAHint() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unknown-key-\(UUID().uuidString).json")
        try Data(#"{"customerGateway": {"accounts": [], "tokenLifetimeSeconds": 60, "tokenLifetimeSecond": 60}}"#.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let (status, message) = try TestExecutable(["--port", "0", "--seed", path.path]).finish()
        XCTAssertEqual(status, 65)
        XCTAssertTrue(message.contains("\(path.path): at customerGateway.tokenLifetimeSecond: unknown key"), message)
        XCTAssertTrue(message.contains("spelling"), message)
    }

    func testResetAndInstancesRefuseAnUnknownKeyWithAHintAndTakeAPartialSeed() throws {
        let server = try TestServer()
        defer { server.stop() }
        for path in ["/__mock/reset", "/__mock/instances"] {
            let refused = try server.request("POST", path, json: ["seed": ["rows": ["accounts": [], "acounts": [], "totalRows": 1, "pageSize": 1, "textSeed": 1]]])
            XCTAssertEqual(refused.status, 400, path)
            XCTAssertTrue(refused.text.contains("at rows.acounts: unknown key"), refused.text)
            XCTAssertNotNil(refused.header("X-Mock-Hint"), path)
        }
        let partial: [String: Any] = ["rows": ["accounts": [["email": "new@example.com", "password": "pw"]], "totalRows": 3, "pageSize": 3, "textSeed": 1]]
        XCTAssertEqual(try server.request("POST", "/__mock/reset", json: ["seed": partial]).status, 204)
        XCTAssertEqual(try server.request("POST", "/auth/login", json: ["email": "new@example.com", "password": "pw"]).status, 200)
        XCTAssertEqual(try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"]).status, 401,
                       "the given rows section replaced the bundled one")
    }
}
