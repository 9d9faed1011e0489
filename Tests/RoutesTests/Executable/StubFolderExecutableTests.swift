import Foundation
import XCTest
import MockTestSupport
import TestSupport

/// `--mappings` on the real executable: a folder with refused mappings starts, says so in the banner
/// and the log, and lists them over HTTP; `--mappings-strict` exits 65 listing every one (as JSON
/// under `--log-format json`); WireMock's `--root-dir`, templating and chunked-encoding flags.
final class StubFolderExecutableTests: TemporaryDirectoryTestCase {
    private func write(_ text: String, to path: String) throws {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func get(_ port: Int, _ path: String) throws -> TestResponse {
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", path, headers: [], body: [])
        return try client.readResponse()
    }

    /// Three good mappings and two refused ones, two levels deep.
    private func writeMixedFolder() throws {
        try write(#"{"request": {"url": "/top"}, "response": {"body": "top"}}"#, to: "mappings/top.json")
        try write(#"{"request": {"url": "/one"}, "response": {"body": "one"}}"#, to: "mappings/a/one.json")
        try write(#"{"request": {"url": "/deep"}, "response": {"body": "deep"}}"#, to: "mappings/a/b/deep.json")
        try write(#"{"request": {"url": "/x"}, "response": {"body": "x"}, "postServeActions": [{"name": "email"}]}"#, to: "mappings/a/b/hook.json")
        try write(#"{"request": {"url": "/y"}, "response": {"proxyBaseUrl": "ftp://example.com"}}"#, to: "mappings/a/proxy.json")
    }

    func testAFolderWithRefusedMappingsStartsAndSaysSo() throws {
        try writeMixedFolder()
        let server = try TestExecutable(["--port", "0", "--mappings", dir.path, "--watch"])
        let banner = try server.banner()
        let port = try TestExecutable.port(inBanner: banner)
        XCTAssertTrue(banner.contains("  stubs            3 from \(dir.path),"), banner)
        XCTAssertTrue(banner.contains("2 refused: see GET /__admin/mappings/refused"), banner)
        XCTAssertTrue(banner.contains("watching         \(dir.path)/mappings: saving a mapping file reloads the stubs"), banner)
        XCTAssertEqual(try get(port, "/deep").text, "deep")
        let refused = try get(port, "/__admin/mappings/refused").jsonObject?["refused"] as? [[String: Any]] ?? []
        XCTAssertEqual(refused.map { $0["pointer"] as? String }, ["/postServeActions/0/name", "/response/proxyBaseUrl"])
        server.signal(SIGTERM)
        let (status, stderr) = try server.finish()
        XCTAssertEqual(status, 0)
        let lines = stderr.split(separator: "\n").filter { $0.contains("mapping refused:") }
        XCTAssertEqual(lines.count, 2, stderr)
        XCTAssertTrue(lines[0].contains("a/b/hook.json: /postServeActions/0/name: only the \"webhook\" post-serve action is supported"), stderr)
        XCTAssertTrue(lines[1].contains("a/proxy.json: /response/proxyBaseUrl"), stderr)
    }

    func testStrictExitsListingEveryRefusedMapping() throws {
        try writeMixedFolder()
        let (status, stderr) = try TestExecutable(["--port", "0", "--mappings", dir.path, "--mappings-strict"]).finish()
        XCTAssertEqual(status, 65)
        XCTAssertTrue(stderr.contains("a/b/hook.json: /postServeActions"), stderr)
        XCTAssertTrue(stderr.contains("a/proxy.json: /response/proxyBaseUrl"), stderr)
        XCTAssertTrue(stderr.contains("2 mapping(s) refused"), stderr)
    }

    func testStrictErrorsAreJSONUnderJSONLogging() throws {
        try writeMixedFolder()
        let (status, stderr) = try TestExecutable(["--port", "0", "--mappings", dir.path, "--mappings-strict", "--log-format", "json"]).finish()
        XCTAssertEqual(status, 65)
        let lines = stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, stderr)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertEqual(object?["level"] as? String, "error", String(line))
        }
    }

    func testRootDirAndGlobalTemplating() throws {
        try write(#"{"request": {"urlPathPattern": "/echo/.*"}, "response": {"body": "{{request.path}}"}}"#, to: "mappings/echo.json")
        let global = try TestExecutable(["--port", "0", "--root-dir", dir.path, "--global-response-templating"])
        defer { global.stopNow() }
        XCTAssertEqual(try get(try global.bannerPort(), "/echo/x").text, "/echo/x")
        let local = try TestExecutable(["--port", "0", "--root-dir", dir.path, "--local-response-templating"])
        defer { local.stopNow() }
        XCTAssertEqual(try get(try local.bannerPort(), "/echo/x").text, "{{request.path}}", "local: only a stub naming response-template")
    }

    /// WireMock's `--use-chunked-encoding`: chunked by default, a length with `never`, refused otherwise.
    func testUseChunkedEncoding() throws {
        try write(#"{"request": {"url": "/c"}, "response": {"body": "chunks"}}"#, to: "mappings/c.json")
        let always = try TestExecutable(["--port", "0", "--mappings", dir.path])
        defer { always.stopNow() }
        let chunked = try get(try always.bannerPort(), "/c")
        XCTAssertEqual(chunked.text, "chunks")
        XCTAssertEqual(chunked.header("Transfer-Encoding"), "chunked")
        let never = try TestExecutable(["--port", "0", "--mappings", dir.path, "--use-chunked-encoding", "never"])
        defer { never.stopNow() }
        let framed = try get(try never.bannerPort(), "/c")
        XCTAssertEqual(framed.header("Content-Length"), "6")
        XCTAssertNil(framed.header("Transfer-Encoding"))
        let (status, stderr) = try TestExecutable(["--port", "0", "--use-chunked-encoding", "sometimes"]).finish()
        XCTAssertEqual(status, 64)
        XCTAssertTrue(stderr.contains("--use-chunked-encoding must be always, never or body_file"), stderr)
    }
}
