#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Severity of a log line, lowest first.
@usableFromInline package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, off

    package init?(name: String) {
        switch name.lowercased() {
        case "debug", "trace": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        case "off", "none", "quiet": self = .off
        default: return nil
        }
    }

    package var name: String { ["debug", "info", "warning", "error", "off"][rawValue] }
    @usableFromInline package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// How lines are written: for a person (`text`) or one JSON object per line (`json`).
package enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}

/// What a line is about; SMS and e-mail lines are highlighted, as a developer waits for them.
package enum LogKind: String, Sendable {
    case message, request, sms, email
    /// The server is ready: its address and port (for scripts that start it on port 0).
    case listening
    /// The start-up banner, as one JSON object (`--log-format json`).
    case banner
    /// One WebSocket message answered (its type, id and outcome).
    case webSocket
}

/// Marks every line of a logger: whose lines they are (an instance of the mock), as JSON member
/// `key` and, in text, `[key short]` after the time.
package struct LogTag: Sendable {
    package var key: String
    package var value: String
    package var short: String

    package init(key: String, value: String, short: String? = nil) {
        self.key = key
        self.value = value
        self.short = short ?? value
    }
}

/// A field of a JSON log line: text (nil is null) or a whole number.
package enum LogValue: Sendable {
    case text(String?)
    case number(Int)
}

/// Writes one line per event. Every client-controlled character that could forge a line
/// (control characters) is escaped here, so no caller can forget; lines go through a bounded
/// queue (`LogOutput`), so logging never blocks an event loop.
///
/// `@usableFromInline`: used on hot paths in other targets (every handler asks `isEnabled` before
/// it builds a line); the optimiser copies into another module only the bodies it may see from
/// there (README, "Layout").
@usableFromInline package struct Logger: Sendable {
    @usableFromInline package let level: LogLevel
    package let format: LogFormat
    /// ANSI colours (only when the output is a terminal).
    package let colour: Bool
    /// Where lines go and how they are marked, behind one reference: a logger is copied out of
    /// the property that holds it on each use, and one retain costs less than the three fields'.
    private let route: Route
    /// Every line is marked with it (nil: unmarked).
    package var tag: LogTag? { route.tag }
    private var output: LogOutput? { route.output }
    private var sink: (@Sendable (String) -> Void)? { route.sink }

    private final class Route: Sendable {
        let output: LogOutput?
        let sink: (@Sendable (String) -> Void)?
        let tag: LogTag?
        init(output: LogOutput?, sink: (@Sendable (String) -> Void)?, tag: LogTag?) {
            self.output = output
            self.sink = sink
            self.tag = tag
        }
    }

    /// A logger writing to `output` (standard error by default) at `level` and above.
    package init(level: LogLevel = .info, format: LogFormat = .text, colour: Bool = false, output: LogOutput? = nil) {
        self.level = level
        self.format = format
        self.colour = colour
        route = Route(output: output, sink: nil, tag: nil)
    }

    /// A logger handing each formatted line (newline included) to `sink` synchronously (tests).
    package init(level: LogLevel, format: LogFormat = .text, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.format = format
        colour = false
        route = Route(output: nil, sink: sink, tag: nil)
    }

    package static let silent = Logger(level: .off)

    /// The same logger, every line marked with `tag`.
    package func tagged(_ tag: LogTag) -> Logger {
        Logger(self, route: Route(output: output, sink: sink, tag: tag))
    }

    private init(_ logger: Logger, route: Route) {
        level = logger.level
        format = logger.format
        colour = logger.colour
        self.route = route
    }

    @inline(__always)
    @usableFromInline package func isEnabled(_ l: LogLevel) -> Bool { l >= level && level != .off }

    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    package func log(_ l: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(l) else { return }
        emit(LogLine.message(l, kind: .message, LogLine.escaped(message()), format: format, colour: colour, tag: tag))
    }

    /// A line formatted as this logger writes it, not written (the banner goes to standard output).
    package func formatted(_ kind: LogKind, _ message: String, fields: [(String, LogValue)] = []) -> String {
        LogLine.message(.info, kind: kind, format == .json ? message : LogLine.escaped(message), fields: format == .json ? fields : [],
                        format: format, colour: colour, tag: tag)
    }

    /// A line a developer or a script is waiting for (an SMS or e-mail the mock "sent", the
    /// listening address), at info, highlighted by its kind; in JSON its `fields` (phone, code, to,
    /// link, port…) too, so no one has to parse the text.
    package func outbox(_ kind: LogKind, _ message: @autoclosure () -> String, fields: @autoclosure () -> [(String, LogValue)] = []) {
        guard isEnabled(.info) else { return }
        emit(LogLine.message(.info, kind: kind, LogLine.escaped(message()), fields: format == .json ? fields() : [],
                             format: format, colour: colour, tag: tag))
    }

    /// One answered request, the line a person reads at the default level (README, "Hints": a hinted
    /// request is always logged at info).
    package func request(_ entry: RequestLogEntry) {
        guard isEnabled(entry.level) else { return }
        let format = format, colour = colour, route = route
        if let sink = route.sink {
            var clock = LogClock(), line = LogBytes()
            defer { line.free() }
            LogLine.request(entry, format: format, colour: colour, tag: route.tag, clock: &clock, to: &line)
            sink(String(decoding: line.bytes, as: UTF8.self))
            return
        }
        (route.output ?? .standardError).enqueue(notice: { LogLine.dropNotice($0, format: format, colour: colour) }) { line, clock in
            LogLine.request(entry, format: format, colour: colour, tag: route.tag, clock: &clock, to: &line)
        }
    }

    /// The transport's call for an answer sent at once: the line is written from the request's,
    /// the response's and the context's fields where they are, with no entry built (its copies of five strings
    /// cost more than the line's own formatting of them).
    func request(_ request: HTTPRequest, _ response: HTTPResponse, system: String?, level: LogLevel, durationNanos: UInt64, remoteAddress: String) {
        guard isEnabled(level) else { return }
        // The hint is the response's `X-Mock-Hint` header, read back only for a line written.
        let hint = response.hint
        if route.sink != nil {
            self.request(RequestLogEntry(method: request.method.rawValue, path: request.path, status: response.status.code, durationNanos: durationNanos,
                                         system: system, hint: hint, remoteAddress: remoteAddress, level: level))
            return
        }
        (route.output ?? .standardError).enqueue(notice: { LogLine.dropNotice($0, format: format, colour: colour) }) { line, clock in
            LogLine.request(method: request.method.rawValue, path: request.path, status: response.status.code, cut: nil, duration: durationNanos,
                            system: system, hint: hint, remote: remoteAddress, level: level, format: format, colour: colour,
                            tag: route.tag, clock: &clock, to: &line)
        }
    }

    /// One WebSocket message answered, the line a person reads beside the requests; the duration
    /// and the peer come from the transport, which knows them (the application does not).
    package func webSocketMessage(_ entry: MessageLogEntry, durationNanos duration: UInt64, remoteAddress remote: String) {
        guard isEnabled(entry.level) else { return }
        let format = format, colour = colour, route = route
        if let sink = route.sink {
            var clock = LogClock(), line = LogBytes()
            defer { line.free() }
            LogLine.webSocketMessage(entry, duration: duration, remote: remote, format: format, colour: colour, tag: route.tag, clock: &clock, to: &line)
            sink(String(decoding: line.bytes, as: UTF8.self))
            return
        }
        (route.output ?? .standardError).enqueue(notice: { LogLine.dropNotice($0, format: format, colour: colour) }) { line, clock in
            LogLine.webSocketMessage(entry, duration: duration, remote: remote, format: format, colour: colour, tag: route.tag, clock: &clock, to: &line)
        }
    }

    /// The transport's call for a reply that carried `log`: the entry is read where it is, not
    /// copied out of the object first.
    func webSocketMessage(_ log: MessageLog, durationNanos: UInt64, remoteAddress: String) {
        guard log.isEnabled(in: self) else { return }
        if route.sink != nil {
            webSocketMessage(log.entry, durationNanos: durationNanos, remoteAddress: remoteAddress)
            return
        }
        (route.output ?? .standardError).enqueue(notice: { LogLine.dropNotice($0, format: format, colour: colour) }) { line, clock in
            log.format(duration: durationNanos, remote: remoteAddress, format: format, colour: colour, tag: route.tag, clock: &clock, to: &line)
        }
    }

    /// Waits (at most `timeout` seconds) until every line so far is written; before exit.
    @discardableResult
    package func flush(timeout: Double = 1) -> Bool {
        guard sink == nil else { return true }
        let format = format, colour = colour
        return (output ?? .standardError).flush(timeout: timeout) { LogLine.dropNotice($0, format: format, colour: colour) }
    }

    private func emit(_ line: String) {
        if let sink {
            sink(line)
            return
        }
        let format = format, colour = colour
        (output ?? .standardError).enqueue(line) { LogLine.dropNotice($0, format: format, colour: colour) }
    }
}

/// What the per-request log line says; the path only, never the query (it may hold passwords).
package struct RequestLogEntry: Sendable {
    package var method: String
    package var path: String
    package var status: Int
    package var durationNanos: UInt64
    package var system: String?
    package var hint: String?
    package var remoteAddress: String
    /// info, or debug for a line only a debugging person wants (admin reads).
    package var level: LogLevel
    /// The connection was closed (or reset) instead of answered: no status was sent.
    package var cut: Cut?

    /// How an answer was cut off instead of sent.
    package enum Cut: String, Sendable {
        case closed, reset
    }

    package init(method: String, path: String, status: Int, durationNanos: UInt64,
                system: String? = nil, hint: String? = nil, remoteAddress: String = "", level: LogLevel = .info) {
        self.method = method
        self.path = path
        self.status = status
        self.durationNanos = durationNanos
        self.system = system
        self.hint = hint
        self.remoteAddress = remoteAddress
        self.level = level
    }
}

/// What the per-message log line of a WebSocket says: the message's type and id as its
/// application names them (the transport knows neither), and what came of it.
package struct MessageLogEntry: Sendable {
    package var type: String
    /// The id a client matches the reply by (a gateway's `sequence_id`), as text.
    package var id: String?
    /// The reply's type, an error code, or what a fault did instead.
    package var outcome: String
    package var system: String?
    package var level: LogLevel

    package init(type: String, id: String?, outcome: String, system: String? = nil, level: LogLevel = .info) {
        self.type = type
        self.id = id
        self.outcome = outcome
        self.system = system
        self.level = level
    }
}

/// A message's log line as its reply carries it: a reference, since a reply is copied on its way
/// out (through the endpoint's wrappers) and the line's text fields would be copied with it. The
/// handler fills it in as it answers (and only when the line is logged: nil costs nothing), on the
/// loop's thread, before the reply leaves; the transport reads it on that thread.
@usableFromInline package final class MessageLog: @unchecked Sendable {
    // Its fields one by one (not one entry), so that neither filling nor writing the line copies
    // an entry. One thread at a time (see above): no exclusivity checks.
    @exclusivity(unchecked) private var type: String
    @exclusivity(unchecked) private var id: String?
    @exclusivity(unchecked) private var outcome: String
    @exclusivity(unchecked) private var system: String?
    @exclusivity(unchecked) private var level: LogLevel

    /// The line's facts as an entry.
    package var entry: MessageLogEntry {
        MessageLogEntry(type: type, id: id, outcome: outcome, system: system, level: level)
    }

    package init(_ entry: MessageLogEntry) {
        type = entry.type
        id = entry.id
        outcome = entry.outcome
        system = entry.system
        level = entry.level
    }

    /// A line of `system`'s, its facts still to be filled in.
    package init(system: String) {
        type = ""
        id = nil
        outcome = ""
        self.system = system
        level = .info
    }

    /// Empties it for another message (`WebSocketConnection.messageLog`).
    func reset(system: String) {
        type = ""
        id = nil
        outcome = ""
        self.system = system
        level = .info
    }

    // Setters for the handler: written here, where the attribute above holds (another module
    // writing a field directly would pay the runtime's checks all the same).

    /// The message's type as its application names it.
    package func setType(_ type: String) { self.type = type }
    /// The id a client matches the reply by.
    package func setId(_ id: String?) { self.id = id }
    /// What came of the message.
    package func setOutcome(_ outcome: String) { self.outcome = outcome }
    /// What came of the message so far ("" before the handler said).
    package var currentOutcome: String { outcome }

    /// Whether `logger` writes this line.
    func isEnabled(in logger: Logger) -> Bool { logger.isEnabled(level) }

    /// The line, formatted from the fields in place.
    func format(duration: UInt64, remote: String, format: LogFormat, colour: Bool, tag: LogTag?, clock: inout LogClock, to line: inout LogBytes) {
        LogLine.webSocketMessage(type: type, id: id, outcome: outcome, system: system, level: level, duration: duration, remote: remote,
                                 format: format, colour: colour, tag: tag, clock: &clock, to: &line)
    }
}
