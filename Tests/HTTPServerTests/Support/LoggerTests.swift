import Foundation
import XCTest
@testable import HTTPServer

/// The log line formats (text at each level, JSON for every kind), escaping of what a client
/// sent, and the bounded queue that keeps a stuck reader from blocking the server.
final class LoggerTests: XCTestCase {
    private func capture(_ level: LogLevel, _ format: LogFormat = .text, _ body: (Logger) -> Void) -> [String] {
        let lines = Locked<[String]>([])
        body(Logger(level: level, format: format) { line in lines.withLock { $0.append(line) } })
        return lines.withLock { $0 }
    }

    private func everyKind(_ logger: Logger) {
        logger.debug("debug line")
        logger.info("info line")
        logger.warning("warning line")
        logger.error("error line")
        logger.outbox(.sms, "SMS to 9123456789: Код подтверждения: 1234")
        logger.outbox(.email, "E-mail to a@b.c: subject")
        logger.request(RequestLogEntry(method: "POST", path: "/auth/login", status: 415, durationNanos: 1_250_000,
                                       system: "rows", hint: "send Content-Type: application/json", remoteAddress: "127.0.0.1"))
        logger.request(RequestLogEntry(method: "GET", path: "/rows/1", status: 200, durationNanos: 300_000))
    }

    func testTextLinesAtEachLevel() {
        let debug = capture(.debug, .text, everyKind)
        XCTAssertEqual(debug.count, 8)
        XCTAssertTrue(debug.allSatisfy { $0.hasSuffix("\n") && !$0.dropLast().contains("\n") && !$0.contains("\u{1B}") }, "\(debug)")
        XCTAssertTrue(debug[0].hasSuffix(" [debug] debug line\n"), debug[0])
        XCTAssertTrue(debug[1].hasSuffix(" info line\n") && !debug[1].contains("["), debug[1])
        XCTAssertTrue(debug[2].hasSuffix(" [warning] warning line\n"), debug[2])
        XCTAssertTrue(debug[3].hasSuffix(" [error] error line\n"), debug[3])
        XCTAssertTrue(debug[4].hasSuffix(" *** SMS to 9123456789: Код подтверждения: 1234\n"), debug[4])
        XCTAssertTrue(debug[5].hasSuffix(" *** E-mail to a@b.c: subject\n"), debug[5])
        XCTAssertTrue(debug[6].hasSuffix(" POST /auth/login 415 1.2ms rows hint: send Content-Type: application/json\n"), debug[6])
        XCTAssertTrue(debug[7].hasSuffix(" GET /rows/1 200 300µs\n"), debug[7])
        XCTAssertNotNil(debug[7].range(of: #"^\d\d:\d\d:\d\d\.\d\d\d "#, options: .regularExpression), debug[7])

        XCTAssertEqual(capture(.info, .text, everyKind).count, 7, "info drops only debug")
        let warning = capture(.warning, .text, everyKind)
        XCTAssertEqual(warning.count, 2, "warning is the quiet mode: no requests, no outbox lines")
        XCTAssertTrue(warning[0].contains("warning line") && warning[1].contains("error line"))
        XCTAssertEqual(capture(.error, .text, everyKind).count, 1)
        XCTAssertEqual(capture(.off, .text, everyKind), [])
    }

    func testEveryJSONLineParses() throws {
        let lines = capture(.debug, .json, everyKind)
        XCTAssertEqual(lines.count, 8)
        var objects: [[String: Any]] = []
        for line in lines {
            XCTAssertTrue(line.hasSuffix("}\n") && !line.dropLast().contains("\n"), line)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertNotNil((object["time"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression), line)
            objects.append(object)
        }
        XCTAssertEqual(objects.map { $0["level"] as? String }, ["debug", "info", "warning", "error", "info", "info", "info", "info"])
        XCTAssertEqual(objects.map { $0["kind"] as? String }, ["message", "message", "message", "message", "sms", "email", "request", "request"])
        XCTAssertEqual(objects[4]["msg"] as? String, "SMS to 9123456789: Код подтверждения: 1234")
        let request = objects[6]
        XCTAssertEqual(request["method"] as? String, "POST")
        XCTAssertEqual(request["path"] as? String, "/auth/login")
        XCTAssertEqual(request["status"] as? Int, 415)
        XCTAssertEqual(request["durationMs"] as? Double, 1.25)
        XCTAssertEqual(request["system"] as? String, "rows")
        XCTAssertEqual(request["hint"] as? String, "send Content-Type: application/json")
        XCTAssertEqual(request["remote"] as? String, "127.0.0.1")
        XCTAssertTrue(objects[7]["system"] is NSNull && objects[7]["hint"] is NSNull, "\(objects[7])")
    }

    /// Durations a person can read: µs below a millisecond (answers take tens of µs; `0.0ms` hid
    /// them), one decimal of a ms above; JSON keeps µs resolution.
    func testDurationsShowMicrosecondsBelowAMillisecond() throws {
        let cases: [(UInt64, String, Double)] = [(0, "0µs", 0), (39_400, "39µs", 0.039), (999_999, "999µs", 0.999),
                                                 (1_000_000, "1.0ms", 1), (12_345_678, "12.3ms", 12.345)]
        for (nanos, text, ms) in cases {
            let entry = RequestLogEntry(method: "GET", path: "/", status: 200, durationNanos: nanos)
            let line = capture(.info, .text) { $0.request(entry) }.joined()
            XCTAssertTrue(line.hasSuffix(" GET / 200 \(text)\n"), line)
            let json = capture(.info, .json) { $0.request(entry) }.joined()
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
            XCTAssertEqual(try XCTUnwrap(object["durationMs"] as? Double), ms, accuracy: 1e-9, json)
        }
    }

    /// An entry at debug (admin reads) is written only at the debug level, and says so in JSON.
    func testARequestEntryKeepsItsLevel() throws {
        let entry = RequestLogEntry(method: "GET", path: "/__mock/sms", status: 200, durationNanos: 0, system: "admin", level: .debug)
        XCTAssertEqual(capture(.info, .text) { $0.request(entry) }, [])
        XCTAssertEqual(capture(.debug, .text) { $0.request(entry) }.count, 1)
        let json = capture(.debug, .json) { $0.request(entry) }.joined()
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["level"] as? String, "debug")
    }

    /// SMS and e-mail lines carry their parts as JSON fields; the text line is unchanged.
    func testOutboxAndListeningEventsCarryFieldsInJSON() throws {
        let emit: (Logger) -> Void = { logger in
            logger.outbox(.sms, "SMS to 9123456789: Код 1234", fields: [("phone", .text("9123456789")), ("code", .text("1234"))])
            logger.outbox(.email, "E-mail to a@b.c: s", fields: [("to", .text("a@b.c")), ("link", .text(nil))])
            logger.outbox(.listening, "listening on http://127.0.0.1:8080", fields: [("host", .text("127.0.0.1")), ("port", .number(8080))])
        }
        let objects = try capture(.info, .json, emit).map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], $0) }
        XCTAssertEqual(objects.map { $0["kind"] as? String }, ["sms", "email", "listening"])
        XCTAssertEqual(objects[0]["code"] as? String, "1234")
        XCTAssertEqual(objects[0]["phone"] as? String, "9123456789")
        XCTAssertEqual(objects[0]["msg"] as? String, "SMS to 9123456789: Код 1234")
        XCTAssertTrue(objects[1]["link"] is NSNull)
        XCTAssertEqual(objects[2]["port"] as? Int, 8080)
        XCTAssertEqual(objects[2]["host"] as? String, "127.0.0.1")
        let text = capture(.info, .text, emit)
        XCTAssertTrue(text[0].hasSuffix(" *** SMS to 9123456789: Код 1234\n"), text[0])
        XCTAssertFalse(text.joined().contains("phone"), "fields are for JSON readers")
    }

    func testColourOnlyWhenAskedFor() {
        let lines = Locked<[String]>([])
        let output = LogOutput { text in lines.withLock { $0.append(text) } }
        defer { output.close() }
        let logger = Logger(level: .info, colour: true, output: output)
        logger.request(RequestLogEntry(method: "GET", path: "/x", status: 404, durationNanos: 0, hint: "h"))
        logger.outbox(.sms, "SMS to 1: code")
        XCTAssertTrue(logger.flush(timeout: 10))
        let text = lines.withLock { $0.joined() }
        XCTAssertTrue(text.contains("\u{1B}[33m404\u{1B}[0m"), text)
        XCTAssertTrue(text.contains("\u{1B}[1;30;43m SMS to 1: code \u{1B}[0m"), text)
    }

    /// Issue 13.9: a login containing a newline must not write a second (forged) line.
    func testControlCharactersFromClientsAreEscapedInEveryFormat() throws {
        let forged = "ivan\n2026-01-01T00:00:00.000Z [error] forged\r\u{1B}[31mred\u{7F}\u{85}\u{2028}\ttab"
        for format in LogFormat.allCases {
            let lines = capture(.debug, format) { logger in
                logger.info("musbooking: registered \(forged)")
                logger.outbox(.sms, "SMS to \(forged)")
                logger.request(RequestLogEntry(method: "GE\nT", path: "/a\nb", status: 400, durationNanos: 0, system: "x\ny", hint: "h\u{1B}int"))
            }
            XCTAssertEqual(lines.count, 3, "\(format): \(lines)")
            for line in lines {
                XCTAssertEqual(line.filter { $0 == "\n" || $0 == "\r\n" }.count, 1, line)
                XCTAssertFalse(line.unicodeScalars.contains { $0.value == 0x0D || $0.value == 0x1B || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x09 }, line)
            }
            if format == .text {
                XCTAssertTrue(lines[0].hasSuffix(#"registered ivan\n2026-01-01T00:00:00.000Z [error] forged\r\u{1B}[31mred\u{7F}\u{85}\u{2028}\ttab"# + "\n"), lines[0])
                XCTAssertTrue(lines[2].contains(#" GE\nT /a\nb 400 0µs x\ny hint: h\u{1B}int"#), lines[2])
            } else {
                let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
                XCTAssertEqual(object["msg"] as? String, #"musbooking: registered ivan\n2026-01-01T00:00:00.000Z [error] forged\r\u{1B}[31mred\u{7F}\u{85}\u{2028}\ttab"#)
            }
        }
        XCTAssertEqual(LogLine.escaped("plain Иван ✓"), "plain Иван ✓")
    }

    /// The word-at-a-time test for "nothing to escape" says what the byte-by-byte one says, for
    /// every byte value at every position of texts shorter and longer than a word.
    func testPlainASCIITestAgreesWithTheByteTest() {
        for length in [1, 7, 8, 9, 15, 16, 17, 23] {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    for json in [false, true] {
                        let expected = bytes.allSatisfy { (0x20...0x7E).contains($0) && !(json && ($0 == 0x22 || $0 == 0x5C)) }
                        let got = bytes.withUnsafeBufferPointer { LogLine.isPlainASCII($0, json: json) }
                        if got != expected {
                            XCTFail("length \(length), byte \(value) at \(position), json \(json): \(got)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// Issue 13.8: a reader that never reads (a writer stuck in write(2)) must not block `log`:
    /// lines past the queue's capacity are dropped and counted, and a later line says how many.
    func testAStuckWriterNeverBlocksLoggingAndDropsAreReported() {
        let release = DispatchSemaphore(value: 0)
        let written = Locked<[String]>([])
        let output = LogOutput(capacity: 4) { text in
            release.wait()  // stuck, as write(2) on a full pipe
            written.withLock { $0.append(text) }
        }
        defer { output.close() }
        let logger = Logger(level: .info, output: output)
        // The writer takes at most one batch (≤ 4 lines) before it blocks, the queue holds 4 more:
        // of 20 lines at least 12 are dropped, whatever the threads' timing.
        for i in 0..<20 { logger.info("line \(i)") }
        XCTAssertGreaterThanOrEqual(output.droppedCount, 12)
        let droppedBefore = output.droppedCount

        for _ in 0..<100 { release.signal() }  // the reader reads again: let every later write through
        XCTAssertTrue(output.flush(timeout: 30), "the stuck lines drain")
        logger.info("after")
        XCTAssertTrue(logger.flush(timeout: 30))
        let text = written.withLock { $0.joined() }
        // Drops are reported in the next line that fits (one notice or several, as the writer ran):
        // together they count every dropped line.
        let reported = text.split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: #"\[warning\] \d+ log lines? dropped"#, options: .regularExpression) else { return nil }
            return Int(line[r].split(separator: " ")[1])
        }
        XCTAssertFalse(reported.isEmpty, text)
        XCTAssertEqual(reported.reduce(0, +), droppedBefore, text)
        XCTAssertTrue(text.hasSuffix(" after\n"), text)
        XCTAssertEqual(output.droppedCount, droppedBefore, "nothing dropped once the reader reads")
    }

    func testFlushGivesUpOnAStuckWriter() {
        let release = DispatchSemaphore(value: 0)
        let output = LogOutput(capacity: 4) { _ in release.wait() }
        defer { release.signal(); output.close() }
        Logger(level: .info, output: output).info("stuck")
        XCTAssertFalse(output.flush(timeout: 0.05), "a reader that never reads must not hold the process at exit")
    }

    /// Lines that come within the gathering window go out in one write: with a window far longer
    /// than the test, the three lines are written only by the flush, all at once.
    func testLinesOfAWindowAreWrittenTogether() {
        let writes = Locked<[String]>([])
        let output = LogOutput(capacity: 100, gatherWindow: 600) { text in writes.withLock { $0.append(text) } }
        defer { output.close() }
        let logger = Logger(level: .info, output: output)
        for i in 0..<3 { logger.info("line \(i)") }
        XCTAssertTrue(output.flush(timeout: 30))
        XCTAssertEqual(writes.withLock { $0.count }, 1, "\(writes.withLock { $0 })")
        XCTAssertEqual(writes.withLock { $0.first?.split(separator: "\n").count }, 3)
    }

    /// A batch that reaches the high-water mark is written without waiting for its window.
    func testAFullBatchIsWrittenBeforeItsWindowEnds() {
        let wrote = DispatchSemaphore(value: 0)
        let output = LogOutput(capacity: 10_000, gatherWindow: 600) { _ in wrote.signal() }
        defer { output.close() }
        let logger = Logger(level: .info, output: output)
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<70 { logger.info(line) }   // past 64 KiB
        XCTAssertEqual(wrote.wait(timeout: .now() + 30), .success, "written with no flush, long before the window ends")
    }

    func testColourOnlyOnATerminalThatShowsIt() {
        XCTAssertTrue(TerminalColour.wanted(isTerminal: true, environment: ["TERM": "xterm-256color"]))
        XCTAssertFalse(TerminalColour.wanted(isTerminal: false, environment: ["TERM": "xterm-256color"]), "a pipe or a file")
        XCTAssertFalse(TerminalColour.wanted(isTerminal: true, environment: [:]), "Xcode's console: a pty without TERM")
        XCTAssertFalse(TerminalColour.wanted(isTerminal: true, environment: ["TERM": "dumb"]))
        XCTAssertFalse(TerminalColour.wanted(isTerminal: true, environment: ["TERM": "xterm", "NO_COLOR": "1"]))
        XCTAssertTrue(TerminalColour.wanted(isTerminal: true, environment: ["TERM": "xterm", "NO_COLOR": ""]), "NO_COLOR empty is unset")
    }
}
