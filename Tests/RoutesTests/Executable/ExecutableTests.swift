import Foundation
import XCTest
import MockTestSupport
import TestSupport
import MockServerKit
import Routes
import EmulationKit

/// The `mock-server` executable itself: flags, banner, exit codes and signals.
final class ExecutableTests: XCTestCase {
    /// The server under test is the one this build made (beside the running test bundle, in the
    /// same debug, release or --scratch-path folder), not whatever `.build/debug` holds.
    func testTheExecutableComesFromThisBuildsFolder() throws {
        let folder = try TestExecutable.binary.deletingLastPathComponent().standardizedFileURL
        XCTAssertEqual(folder, try TestExecutable.productsDirectory.standardizedFileURL)
        let bundles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xctest") }
        XCTAssertFalse(bundles.isEmpty, "a test bundle beside \(folder.path)")
    }

    func testHelpListsEveryFlagWithItsEnvironmentVariable() throws {
        let server = try TestExecutable(["--help"])
        let help = server.readOutput()
        XCTAssertEqual(try server.finish().status, 0)
        for flag in ["--host", "--port", "--seed", "--log-level", "--admin-token", "--max-body-bytes", "--header-timeout",
                     "--idle-timeout", "--max-ws-message-bytes", "--max-connections", "MOCK_PORT", "--log-format", "MOCK_LOG_FORMAT", "--version",
                     "--journal-size", "--max-request-line-bytes", "--event-loops", "--poller", "MOCK_POLLER", "--send-timeout",
                     "--ws-ping-interval", "--ws-frame-timeout", "--state", "MOCK_STATE", "--watch", "MOCK_WATCH", "--shutdown-grace"] {
            XCTAssertTrue(help.contains(flag), flag)
        }
    }

    /// Every flag that takes a number or a word states what it takes: numbers their bounds (the
    /// ones the parser checks) and unit, enumerations their values.
    func testHelpStatesEveryFlagsRange() throws {
        let server = try TestExecutable(["--help"])
        let help = server.readOutput()
        XCTAssertEqual(try server.finish().status, 0)
        let lines = help.split(separator: "\n").map(String.init)
        func line(_ flag: String) -> String { lines.first { $0.hasPrefix("  \(flag) ") } ?? "" }
        for (flag, values) in [("--port", "[N: 0–65535]"), ("--max-wait-ms", "[N: 0–30000 ms]"), ("--max-body-bytes", "[N: 0–1073741824 bytes]"),
                               ("--journal-size", "[N: 0–1000000 requests]"), ("--max-skyzone-accounts", "[N: 1–10000000 accounts]"),
                               ("--sms-code", "[CODE: 1–9 digits]"), ("--header-timeout", "[SECONDS: above 0 to 31536000"),
                               ("--log-level", "[LEVEL: debug, info, warning, error, off]"), ("--log-format", "[FORMAT: text, json]"),
                               ("--poller", "[KIND: epoll, kqueue, poll]")] {
            XCTAssertTrue(line(flag).contains(values), "\(flag): \(line(flag))")
        }
        // Every flag with a value name that is a number or a choice has its bracket.
        for text in lines where [" N ", " SECONDS ", " LEVEL ", " FORMAT ", " KIND ", " CODE "].contains(where: { text.prefix(34).contains($0) }) {
            let name = text.prefix(34).split(separator: " ").last.map(String.init) ?? ""
            XCTAssertTrue(text.contains("[\(name): "), text)
        }
        // The bounds shown are the ones enforced: one past each end is refused.
        for args in [["--port", "65536"], ["--max-wait-ms", "30001"], ["--journal-size", "-1"], ["--max-skyzone-accounts", "0"], ["--sms-code", "1234567890"]] {
            XCTAssertEqual(try TestExecutable(args).finish().status, 64, args.joined(separator: " "))
        }
    }

    func testPortZeroBannerHealthAndSIGTERMOrSIGINTExitZero() throws {
        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            let server = try TestExecutable(["--port", "0", "--log-level", "info"])
            let port = try server.bannerPort()
            let client = try TestHTTPClient(port: port)
            try client.sendRequest("GET", "/__mock/health")
            XCTAssertEqual(try client.readResponse().text, #"{"status":"ok"}"#)
            server.signal(signal)
            let (status, log) = try server.finish()
            XCTAssertEqual(status, 0, "\(name): \(log)")
            XCTAssertTrue(log.contains(name), log)
        }
    }

    /// Issue 13 §6: the handling is in place before the banner, so a signal sent the moment the
    /// banner is read is never lost. Each exit is awaited with a bound, not forever.
    func testSIGTERMTheInstantTheBannerIsReadAlwaysExitsZero() throws {
        for run in 1...50 {
            let server = try TestExecutable(["--port", "0", "--log-level", "warning", "--event-loops", "1"])
            _ = try server.bannerPort()
            server.signal(SIGTERM)
            let status = try server.exitStatus(timeout: 20)
            XCTAssertEqual(server.process.terminationReason, .exit, "run \(run)")
            XCTAssertEqual(status, 0, "run \(run)")
        }
    }

    func testPollerFlagTakesPollAndRefusesAMechanismThisSystemLacks() throws {
        let server = try TestExecutable(["--port", "0", "--poller", "poll"])
        _ = try server.bannerPort()
        server.signal(SIGTERM)
        XCTAssertEqual(try server.finish().status, 0)
        #if canImport(Darwin)
        let missing = "epoll"
        #else
        let missing = "kqueue"
        #endif
        for args in [["--poller", missing], ["--poller", "select"]] {
            let (status, message) = try TestExecutable(args).finish()
            XCTAssertEqual(status, 64, args.joined(separator: " "))
            XCTAssertTrue(message.contains("--poller"), message)
        }
    }

    func testBusyPortFailsWithAClearMessage() throws {
        let first = try TestExecutable(["--port", "0"])
        let port = try first.bannerPort()
        let (status, message) = try TestExecutable(["--port", String(port)]).finish()
        XCTAssertEqual(status, 69)
        XCTAssertTrue(message.contains("already in use"), message)
        first.signal(SIGTERM)
        XCTAssertEqual(try first.finish().status, 0)
    }

    func testMalformedSeedStopsTheServerNamingTheFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-seed-\(UUID().uuidString).json")
        try Data("{\"rows\": }".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let (status, message) = try TestExecutable(["--port", "0", "--seed", path.path]).finish()
        XCTAssertEqual(status, 65)
        XCTAssertTrue(message.contains(path.path) && message.contains("line 1"), message)
    }

    func testUnknownFlagAndBadValueAreUsageErrors() throws {
        for args in [["--bogus"], ["--port", "70000"], ["--log-level", "loud"], ["--header-timeout", "1e20"], ["--idle-timeout", "nan"], ["--log-format", "xml"]] {
            let (status, message) = try TestExecutable(args).finish()
            XCTAssertEqual(status, 64, args.joined(separator: " "))
            XCTAssertFalse(message.isEmpty)
        }
    }

    /// `--log-format json`: every line on standard output and error is one JSON object, the banner and the SMS line included.
    func testJSONLogFormatWritesOneObjectPerLine() throws {
        let server = try TestExecutable(["--port", "0", "--log-format", "json"])
        // The banner too is one JSON object (on standard output): `2>&1 | jq` reads every line.
        let banner = try server.banner()
        let port = try TestExecutable.port(inBanner: banner)
        XCTAssertTrue(banner.hasSuffix("}\n"), banner)
        let bannerObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(banner.utf8)) as? [String: Any], banner)
        XCTAssertEqual(bannerObject["kind"] as? String, "banner")
        XCTAssertEqual(bannerObject["port"] as? Int, port)
        XCTAssertTrue((bannerObject["msg"] as? String)?.contains("listening on http://127.0.0.1:\(port)") ?? false, banner)
        let client = try TestHTTPClient(port: port)
        let body = Array("phone=9550001122".utf8)
        try client.sendRequest("POST", "/api/users/sms", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
        XCTAssertEqual(try client.readResponse().status, 200)
        server.signal(SIGTERM)
        let (status, log) = try server.finish()
        XCTAssertEqual(status, 0, log)
        let lines = log.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        var objects: [[String: Any]] = []
        for line in lines {
            objects.append(try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line)))
        }
        let kinds = objects.map { $0["kind"] as? String ?? "?" }
        XCTAssertTrue(kinds.contains("sms"), log)
        XCTAssertFalse(log.contains("\u{1B}"), "no colour in a pipe")
        // A script reads the port from the log, and the SMS's parts without parsing its text.
        let listening = try XCTUnwrap(objects.first { $0["kind"] as? String == "listening" }, log)
        XCTAssertEqual(listening["port"] as? Int, port)
        XCTAssertEqual(listening["host"] as? String, "127.0.0.1")
        XCTAssertEqual(listening["url"] as? String, "http://127.0.0.1:\(port)")
        let sms = try XCTUnwrap(objects.first { $0["kind"] as? String == "sms" })
        XCTAssertEqual(sms["phone"] as? String, "9550001122")
        XCTAssertEqual((sms["code"] as? String)?.count, 4, "\(sms)")
        XCTAssertTrue((sms["text"] as? String)?.contains(sms["code"] as? String ?? "-") ?? false, "\(sms)")
    }

    func testVersionPrintsTheLibraryConstant() throws {
        let server = try TestExecutable(["--version"])
        let text = server.readOutput()
        XCTAssertEqual(try server.finish().status, 0)
        XCTAssertEqual(text, "mock-server \(MockServerVersion.current)\n")
    }

    /// Issue 12: a copy of the binary started outside the checkout serves the bundled seed.
    func testStartsFromADirectoryWithoutASeedFileUsingTheBundledSeed() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("mock-server-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let server = try TestExecutable(["--port", "0"], in: empty)
        defer { server.stopNow() }
        let text = try server.banner()
        XCTAssertTrue(text.contains("(seed: bundled seed)") && text.contains("mock-server \(MockServerVersion.current) listening"), text)
        let port = try TestExecutable.port(inBanner: text)
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", "/__mock/health")
        XCTAssertEqual(try client.readResponse().text, #"{"status":"ok"}"#)
    }

    /// `--sms-code` (issue 8): every SMS code is the given value, so a UI test can type it; a code
    /// that is not digits is a usage error.
    func testSMSCodeFlagFixesEveryCode() throws {
        let server = try TestExecutable(["--port", "0", "--sms-code", "4242"])
        let port = try server.bannerPort()
        for phone in ["9031112233", "9034445566"] {
            let client = try TestHTTPClient(port: port)
            try client.sendRequest("POST", "/api/users/sms", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                   body: Array("phone=\(phone)".utf8))
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", "/__mock/sms")
        let codes = (try client.readResponse().jsonArray ?? []).compactMap { ($0 as? [String: Any])?["code"] as? String }
        XCTAssertEqual(codes, ["4242", "4242"])
        server.stopNow()
        let (status, message) = try TestExecutable(["--sms-code", "12a4"]).finish()
        XCTAssertEqual(status, 64)
        XCTAssertTrue(message.contains("--sms-code must be 1 to 9 digits"), message)
    }

    /// Listening on every interface, the banner gives URLs a phone can open, never 0.0.0.0.
    func testBannerOnEveryInterfaceListsDeviceURLsAndTheAdminToken() throws {
        let server = try TestExecutable(["--port", "0", "--host", "0.0.0.0"])
        let text = try server.banner()
        server.stopNow()
        XCTAssertFalse(text.contains("0.0.0.0"), text)
        XCTAssertTrue(text.contains("http://127.0.0.1:"), text)
        XCTAssertTrue(text.contains("--admin-token"), text)
        XCTAssertTrue(text.contains("From a device on the same network:") || text.contains("no non-loopback address"), text)
    }

    /// The device URLs leave out every loopback interface, even one carrying a non-127 address:
    /// in a network namespace of the test's own, whose loopback also has 192.0.2.1, the banner
    /// offers no device URL and says why (deterministic, unlike the machine's own interfaces).
    func testBannerOffersNoDeviceURLForAnAddressOnTheLoopbackInterface() throws {
        try inPrivateNetwork(module: "RoutesTests") {
            // Started from this thread, the server process lives in the namespace too.
            let server = try TestExecutable(["--port", "0", "--host", "0.0.0.0"])
            defer { server.stopNow() }
            let text = try server.banner()
            XCTAssertTrue(text.contains("no non-loopback address"), text)
            XCTAssertFalse(text.contains(PrivateNetwork.address), text)
        }
    }

    /// With --admin-token the banner prints the console's sign-in address (the token escaped),
    /// and that address signs a browser in.
    func testBannerPrintsTheConsoleTokenURL() throws {
        let server = try TestExecutable(["--port", "0", "--host", "0.0.0.0", "--admin-token", "s3 cret/é-0123456789abc"])
        let text = try server.banner()
        defer { server.stopNow() }
        XCTAssertTrue(text.contains("The console from a phone or another machine"), text)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("/__mock/?token=") }, text)
        XCTAssertTrue(line.hasSuffix("/__mock/?token=s3%20cret%2F%C3%A9-0123456789abc"), String(line))
        XCTAssertFalse(line.contains("0.0.0.0"), String(line))
        let port = try TestExecutable.port(inBanner: text)
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", "/__mock/?token=s3%20cret%2F%C3%A9-0123456789abc")
        let login = try client.readResponse()
        XCTAssertEqual(login.status, 303, login.text)
        XCTAssertTrue(login.header("Set-Cookie")?.contains("HttpOnly") ?? false)
    }

    /// With --seed the banner names the file.
    func testBannerNamesAGivenSeedFile() throws {
        let server = try TestExecutable(["--port", "0", "--seed", TestServer.repositorySeedPath])
        let text = try server.banner()
        server.stopNow()
        XCTAssertTrue(text.contains("(seed: \(TestServer.repositorySeedPath))"), text)
    }

    /// The banner lists what the systems declare: each system's name, every endpoint and its seed
    /// account; then the console's URL.
    func testBannerListsEverySystemsDeclaredEndpointsAndTheConsole() throws {
        let server = try TestExecutable(["--port", "0"])
        let text = try server.banner()
        server.stopNow()
        let port = try TestExecutable.port(inBanner: text)
        let app = MockApp(seed: try Seed.load(path: TestServer.repositorySeedPath), environment: MockEnvironment())
        for system in app.systems {
            XCTAssertTrue(text.contains("\n  \(system.name) "), system.name)
            for endpoint in system.endpoints {
                let path = endpoint.path.replacingOccurrences(of: ":page", with: "<page>").replacingOccurrences(of: ":id", with: "<id>")
                let shown = endpoint.method == "WS" ? "ws://127.0.0.1:\(port)\(path)" : "\(endpoint.method) \(path)"
                XCTAssertTrue(text.contains(shown), "\(shown) missing from:\n\(text)")
            }
            if let account = system.seedAccount { XCTAssertTrue(text.contains("(\(account))"), account) }
        }
        XCTAssertTrue(text.contains("http://127.0.0.1:\(port)/__mock/"), text)
        XCTAssertFalse(text.contains("state  "), "no state line without --state")
        XCTAssertFalse(text.contains("watching"), "no watch line without --watch")
        XCTAssertFalse(text.contains("connections "), "no connection line when the limit is the configured one")
    }

    /// With `--state` and `--watch`, the banner says where the state is kept and which file is watched.
    func testBannerNamesTheStateFileAndTheWatchedSeed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mock-server-banner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = directory.appendingPathComponent("seed.json").path
        try FileManager.default.copyItem(atPath: TestServer.repositorySeedPath, toPath: seed)
        let state = directory.appendingPathComponent("state.json").path
        let server = try TestExecutable(["--port", "0", "--seed", seed, "--state", state, "--watch"])
        let text = try server.banner()
        server.stopNow()
        XCTAssertTrue(text.contains("  state            kept in \(state) (a change is answered once it is on disk; POST /__mock/reset puts it back to the seed)"), text)
        XCTAssertTrue(text.contains("  watching         \(seed): saving it reloads the seed"), text)
    }

    /// Under a low `ulimit -n` the banner gives the connection limit actually in force.
    func testBannerGivesTheConnectionLimitWhenTheDescriptorLimitLowersIt() throws {
        let server = try TestExecutable(["--port", "0", "--max-connections", "5000"], shell: "ulimit -n 200")
        let text = try server.banner()
        server.stopNow()
        guard let range = text.range(of: #"connections +at most \d+, not 5000"#, options: .regularExpression) else {
            return XCTFail("no connection-limit line:\n\(text)")
        }
        let limit = Int(text[range].split(separator: " ")[3].dropLast()) ?? 0
        XCTAssertTrue(limit > 0 && limit < 200, String(text[range]))
    }
}
