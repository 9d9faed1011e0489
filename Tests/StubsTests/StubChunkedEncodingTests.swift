import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// `--use-chunked-encoding` (WireMock's flag and default): a stub answer whose mapping gives no
/// `Content-Length` goes with `Transfer-Encoding: chunked`, read here byte for byte from a raw
/// socket; one framing always (RFC 9112 §6).
final class StubChunkedEncodingTests: TemporaryDirectoryTestCase {
    private func start(_ policy: StubChunkedEncoding) throws -> TestServer {
        var limits = StubLimits()
        limits.chunkedEncoding = policy
        let mappings = dir.appendingPathComponent("mappings"), files = dir.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data("from a file".utf8).write(to: files.appendingPathComponent("f.txt"))
        let stubs = [
            #"{"request": {"url": "/inline"}, "response": {"body": "hello"}}"#,
            #"{"request": {"url": "/empty"}, "response": {"status": 200}}"#,
            #"{"request": {"url": "/none"}, "response": {"status": 204}}"#,
            #"{"request": {"url": "/given"}, "response": {"body": "hello", "headers": {"Content-Length": "5"}}}"#,
            #"{"request": {"url": "/file"}, "response": {"bodyFileName": "f.txt"}}"#,
        ]
        for (i, stub) in stubs.enumerated() { try Data(stub.utf8).write(to: mappings.appendingPathComponent("\(i).json")) }
        let root = dir.path
        return try TestServer(stubs: { clock in try StubLoading.store(root: root, clock: clock, limits: limits) })
    }

    /// Every byte of one answer to a `version` request that closes the connection.
    private func raw(_ server: TestServer, _ method: String, _ path: String, version: String = "HTTP/1.1") throws -> String {
        let client = try server.connect()
        try client.send("\(method) \(path) \(version)\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return String(decoding: try client.readToEnd(), as: UTF8.self)
    }

    private func split(_ answer: String) -> (head: [String], body: String) {
        let parts = answer.components(separatedBy: "\r\n\r\n")
        return (parts[0].components(separatedBy: "\r\n"), parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    private func field(_ head: [String], _ name: String) -> [String] {
        head.filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    func testAlwaysChunksEveryAnswerWithoutAGivenLength() throws {
        let server = try start(.always)
        defer { server.stop() }
        for (path, body) in [("/inline", "5\r\nhello\r\n0\r\n\r\n"), ("/empty", "0\r\n\r\n"), ("/file", "b\r\nfrom a file\r\n0\r\n\r\n")] {
            let (head, wire) = split(try raw(server, "GET", path))
            XCTAssertEqual(field(head, "Transfer-Encoding"), ["chunked"], path)
            XCTAssertEqual(field(head, "Content-Length"), [], path)
            XCTAssertEqual(wire, body, path)
        }
        // A mapping's own length wins (the server writes the count it sends); 204 has neither.
        let (given, givenBody) = split(try raw(server, "GET", "/given"))
        XCTAssertEqual(field(given, "Content-Length"), ["5"])
        XCTAssertEqual(field(given, "Transfer-Encoding"), [])
        XCTAssertEqual(givenBody, "hello")
        let (none, noneBody) = split(try raw(server, "GET", "/none"))
        XCTAssertEqual(field(none, "Content-Length") + field(none, "Transfer-Encoding"), [])
        XCTAssertEqual(noneBody, "")
        // HTTP/1.0 has no chunked coding: a length; HEAD says chunked and sends no body.
        let (old, oldBody) = split(try raw(server, "GET", "/inline", version: "HTTP/1.0"))
        XCTAssertEqual(field(old, "Content-Length"), ["5"])
        XCTAssertEqual(field(old, "Transfer-Encoding"), [])
        XCTAssertEqual(oldBody, "hello")
        let (head, headBody) = split(try raw(server, "HEAD", "/inline"))
        XCTAssertEqual(field(head, "Transfer-Encoding"), ["chunked"])
        XCTAssertEqual(headBody, "")
        // Kept alive: two chunked answers on one connection, each read whole.
        let client = try server.connect()
        try client.sendRequest("GET", "/inline")
        XCTAssertEqual(try client.readResponse().text, "hello")
        try client.sendRequest("GET", "/file")
        XCTAssertEqual(try client.readResponse().text, "from a file")
    }

    func testNeverAndBodyFile() throws {
        let never = try start(.never)
        for path in ["/inline", "/file"] {
            let (head, _) = split(try raw(never, "GET", path))
            XCTAssertEqual(field(head, "Transfer-Encoding"), [], path)
            XCTAssertEqual(field(head, "Content-Length").count, 1, path)
        }
        never.stop()
        let bodyFile = try start(.bodyFile)
        defer { bodyFile.stop() }
        XCTAssertEqual(field(split(try raw(bodyFile, "GET", "/inline")).head, "Content-Length"), ["5"])
        let (head, wire) = split(try raw(bodyFile, "GET", "/file"))
        XCTAssertEqual(field(head, "Transfer-Encoding"), ["chunked"])
        XCTAssertEqual(wire, "b\r\nfrom a file\r\n0\r\n\r\n")
    }

    /// The systems' answers and the admin API keep their length: only stubs follow the policy.
    func testOnlyStubAnswersAreChunked() throws {
        let server = try start(.always)
        defer { server.stop() }
        let (head, _) = split(try raw(server, "GET", "/__admin/mappings"))
        XCTAssertEqual(field(head, "Transfer-Encoding"), [])
        XCTAssertEqual(field(head, "Content-Length").count, 1)
    }

    func testTheFlagsValues() {
        XCTAssertEqual(StubChunkedEncoding(rawValue: "body_file"), .bodyFile)
        XCTAssertNil(StubChunkedEncoding(rawValue: "sometimes"))
        XCTAssertEqual(StubLimits().chunkedEncoding, .always, "WireMock's default")
    }
}
