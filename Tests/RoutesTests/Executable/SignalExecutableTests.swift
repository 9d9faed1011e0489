import Foundation
import XCTest
import HTTPServer
import MockTestSupport
import TestSupport
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// SIGHUP is a reload, as for nginx and PostgreSQL, never death: under `--watch` it reloads the
/// seed; otherwise it is logged and ignored.
final class SignalExecutableTests: TemporaryDirectoryTestCase {
    /// Reads the server's standard error until it holds `text` (or `timeout` seconds pass).
    private func waitForLog(_ server: TestExecutable, _ text: String, into log: inout String, timeout: TimeInterval = 20) -> Bool {
        let fd = server.errors.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !log.contains(text) {
            let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard wait > 0 else { return false }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, wait) > 0 else { return false }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return false }
            log += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }

    func testSIGHUPWithoutWatchIsLoggedAndTheServerKeepsServing() throws {
        let server = try TestExecutable(["--port", "0"])
        defer { server.stopNow() }
        let port = try server.bannerPort()
        server.signal(SIGHUP)
        var log = ""
        XCTAssertTrue(waitForLog(server, "SIGHUP ignored", into: &log), log)
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", "/__mock/health")
        XCTAssertEqual(try client.readResponse().status, 200)
        server.signal(SIGTERM)
        XCTAssertEqual(try server.exitStatus(), 0, "stopped by SIGTERM, not killed by SIGHUP")
    }

    /// Started with its signals ignored (`nohup` ignores SIGHUP, a script's background job SIGINT):
    /// the server still takes them. xnu discards a signal whose disposition is `SIG_IGN` even while
    /// it is blocked (`kern_sig.c:2124-2128`), Linux keeps it pending, so on Linux the disposition
    /// itself is what the test reads (`SigIgn` in /proc), and the signals are then sent as well.
    func testSignalsIgnoredWhenStartedAreStillTaken() throws {
        let server = try TestExecutable(["--port", "0"], shell: "trap '' HUP INT TERM")
        defer { server.stopNow() }
        _ = try server.bannerPort()
        #if os(Linux)
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") })
        let ignored = try XCTUnwrap(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        for trapped in [SIGHUP, SIGINT, SIGTERM] {
            XCTAssertEqual(ignored & (1 << UInt64(trapped - 1)), 0, "signal \(trapped) is still ignored: SigIgn \(line)")
        }
        #endif
        server.signal(SIGHUP)
        var log = ""
        XCTAssertTrue(waitForLog(server, "SIGHUP ignored", into: &log), log)
        server.signal(SIGTERM)
        XCTAssertEqual(try server.exitStatus(), 0, "stopped by SIGTERM")
    }

    func testSIGHUPUnderWatchReloadsTheSeed() throws {
        let seedPath = dir.appendingPathComponent("seed.json").path
        try FileManager.default.copyItem(atPath: TestServer.repositorySeedPath, toPath: seedPath)
        let server = try TestExecutable(["--port", "0", "--seed", seedPath, "--watch"])
        defer { server.stopNow() }
        let port = try server.bannerPort()
        func request(_ method: String, _ path: String, form: String = "") throws -> TestResponse {
            let client = try TestHTTPClient(port: port)
            try client.sendRequest(method, path, headers: form.isEmpty ? [] : [("Content-Type", "application/x-www-form-urlencoded")],
                                   body: Array(form.utf8))
            return try client.readResponse()
        }
        XCTAssertEqual(try request("POST", "/api/users/sms", form: "phone=9031234567").status, 200)
        XCTAssertEqual(try request("GET", "/__mock/sms").jsonArray?.count, 1)
        // The file is unchanged, so only the signal reloads it: every system and the outbox go back to the seed.
        server.signal(SIGHUP)
        var log = ""
        XCTAssertTrue(waitForLog(server, "seed reloaded from", into: &log), log)
        XCTAssertTrue(log.contains("SIGHUP: reloading the seed"), log)
        XCTAssertEqual(try request("GET", "/__mock/sms").jsonArray?.count, 0)
        server.signal(SIGTERM)
        XCTAssertEqual(try server.exitStatus(), 0)
    }
}
