import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// WireMock's global settings: `PUT /__admin/settings` sets a delay for every stub answer whose
/// mapping has none of its own and keeps `extended`; `PATCH /__admin/settings/extended` merges.
final class StubGlobalSettingsTests: MockServerTestCase {
    private func put(_ text: String) throws -> TestResponse {
        try server.request("PUT", "/__admin/settings", headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    private func settings() throws -> [String: Any] {
        try XCTUnwrap(try server.request("GET", "/__admin/settings").jsonObject?["settings"] as? [String: Any])
    }

    func testPutSettingsAreReturnedAndKeptByAReset() throws {
        let put = try put(#"{"fixedDelay": 5, "delayDistribution": {"type": "uniform", "lower": 1, "upper": 3}, "extended": {"mySetting": 123}}"#)
        XCTAssertEqual(put.status, 200, put.text)
        var kept = try settings()
        XCTAssertEqual(kept["fixedDelay"] as? Int, 5)
        let distribution = kept["delayDistribution"] as? [String: Any]
        XCTAssertEqual(distribution?["type"] as? String, "uniform")
        XCTAssertEqual(distribution?["lower"] as? Int, 1)
        XCTAssertEqual(distribution?["upper"] as? Int, 3)
        XCTAssertEqual((kept["extended"] as? [String: Any])?["mySetting"] as? Int, 123)
        // WireMock's reset keeps them.
        XCTAssertEqual(try server.request("POST", "/__admin/reset").status, 200)
        XCTAssertEqual(try settings()["fixedDelay"] as? Int, 5)
        // GET's own shape is taken back, and a field left out is unset.
        XCTAssertEqual(try server.request("POST", "/__admin/settings", body: Array(#"{"settings": {"extended": {"a": 1}}}"#.utf8)).status, 200)
        kept = try settings()
        XCTAssertNil(kept["fixedDelay"])
        XCTAssertEqual((kept["extended"] as? [String: Any])?["a"] as? Int, 1)
        // The mock's own reset clears them, as it removes the stubs a test added.
        XCTAssertEqual(try server.request("POST", "/__mock/reset").status, 204)
        XCTAssertEqual(try server.request("GET", "/__admin/settings").text, #"{"settings":{}}"#)
    }

    func testPatchMergesExtendedOneLevelDeep() throws {
        XCTAssertEqual(try put(#"{"extended": {"two": 2, "nested": {"a": 1}}}"#).status, 200)
        let patch = try server.request("PATCH", "/__admin/settings/extended", body: Array(#"{"extended": {"one": 11, "nested": {"b": 2}}}"#.utf8))
        XCTAssertEqual(patch.status, 200, patch.text)
        let extended = try XCTUnwrap(try settings()["extended"] as? [String: Any])
        XCTAssertEqual(extended["one"] as? Int, 11)
        XCTAssertEqual(extended["two"] as? Int, 2)
        XCTAssertEqual(extended["nested"] as? [String: Int], ["b": 2], "replaced, not merged, below the first level")
    }

    func testBadSettingsAreRefusedNamingTheField() throws {
        for (body, pointer) in [(#"{"fixedDelay": -5}"#, "/fixedDelay"), (#"{"bogus": 1}"#, "/bogus"),
                                (#"{"delayDistribution": {"type": "pareto"}}"#, "/delayDistribution/type"),
                                (#"{"extended": 5}"#, "/extended"), (#"{"proxyPassThrough": false}"#, "/proxyPassThrough")] {
            let refused = try put(body)
            XCTAssertEqual(refused.status, 422, body)
            let errors = refused.jsonObject?["errors"] as? [[String: Any]]
            XCTAssertEqual((errors?.first?["source"] as? [String: Any])?["pointer"] as? String, pointer, body)
        }
        XCTAssertEqual(try server.request("GET", "/__admin/settings").text, #"{"settings":{}}"#, "nothing was taken")
    }

    func testTheGlobalDelayHoldsAStubAnswerWithoutItsOwn() throws {
        let added = try server.request("POST", "/__admin/mappings", json: ["request": ["url": "/global-slow"], "response": ["status": 200, "body": "late"]])
        XCTAssertEqual(added.status, 201, added.text)
        XCTAssertEqual(try put(#"{"fixedDelay": 150}"#).status, 200)
        XCTAssertEqual(try server.request("GET", "/global-slow").text, "late")
        let entry = try XCTUnwrap(try server.journal("path=/global-slow").first)
        // The answer was held at least the global delay before it went out.
        XCTAssertGreaterThanOrEqual(entry["durationMs"] as? Double ?? 0, 150, "\(entry)")
    }

    /// WireMock's `configureDelay`: the mapping's own fixed delay replaces the global one, its own
    /// distribution replaces the global one, and the two parts add up.
    func testTheMappingsOwnDelayReplacesTheGlobalOnePartByPart() throws {
        func response(_ json: String) throws -> StubResponse {
            let value = try XCTUnwrap(JSONValue.parse(Array(json.utf8)))
            return try StubMapping.decode(value, filesRoot: nil, newId: "x", templateAll: false).response
        }
        let global = try StubGlobalSettings.decode(try XCTUnwrap(JSONValue.parse(Array(
            #"{"fixedDelay": 100, "delayDistribution": {"type": "uniform", "lower": 7, "upper": 7}}"#.utf8))))
        let ms: UInt64 = 1_000_000
        XCTAssertEqual(try response(#"{"request": {}, "response": {}}"#).delayNanos(global: global), 107 * ms)
        XCTAssertEqual(try response(#"{"request": {}, "response": {"fixedDelayMilliseconds": 20}}"#).delayNanos(global: global), 27 * ms)
        XCTAssertEqual(try response(#"{"request": {}, "response": {"delayDistribution": {"type": "uniform", "lower": 3, "upper": 3}}}"#)
            .delayNanos(global: global), 103 * ms)
        XCTAssertEqual(try response(#"{"request": {}, "response": {"fixedDelayMilliseconds": 0}}"#).delayNanos(), 0)
    }

    func testTheOldAdminRootListsTheMappings() throws {
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", json: ["request": ["url": "/my-test-url"], "response": ["status": 418]]).status, 201)
        let listed = try server.request("GET", "/__admin/")
        XCTAssertEqual(listed.status, 200)
        let mappings = try XCTUnwrap(listed.jsonObject?["mappings"] as? [[String: Any]])
        XCTAssertEqual((mappings.first?["request"] as? [String: Any])?["url"] as? String, "/my-test-url")
        let bare = try server.request("GET", "/__admin")
        XCTAssertEqual(bare.status, 302, "as WireMock: on to /__admin/")
        XCTAssertEqual(bare.header("Location"), "/__admin/")
        let ui = try server.request("GET", "/__admin/swagger-ui/")
        XCTAssertEqual(ui.status, 200)
        XCTAssertTrue(ui.text.contains("/__admin/docs/swagger"), ui.text)
    }
}
