import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Severity of a log line, lowest first.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, off

    public init?(name: String) {
        switch name.lowercased() {
        case "debug", "trace": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        case "off", "none", "quiet": self = .off
        default: return nil
        }
    }

    public var name: String { ["debug", "info", "warning", "error", "off"][rawValue] }
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Writes one line per event to standard error (a single `write`, so lines from threads never interleave).
public struct Logger: Sendable {
    public let level: LogLevel
    private let sink: (@Sendable (String) -> Void)?

    /// A logger writing to standard error at `level` and above.
    public init(level: LogLevel = .info) {
        self.level = level
        sink = nil
    }

    /// A logger handing each formatted line to `sink` (tests capture lines this way).
    public init(level: LogLevel, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.sink = sink
    }

    public static let silent = Logger(level: .off)

    @inline(__always)
    public func isEnabled(_ l: LogLevel) -> Bool { l >= level && level != .off }

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    public func log(_ l: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(l) else { return }
        let line = "\(Logger.timestamp()) [\(l.name)] \(message())\n"
        if let sink {
            sink(line)
        } else {
            var bytes = Array(line.utf8)
            _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
        }
    }

    /// One answered request, the line a person reads at the default level (API.md §0: a hinted
    /// request is always logged at info).
    public func request(_ entry: RequestLogEntry) {
        guard isEnabled(.info) else { return }
        var line = "\(entry.method) \(entry.path) \(entry.status) \(entry.durationMillisText)ms"
        if let system = entry.system { line += " [\(system)]" }
        if let hint = entry.hint { line += " hint: \(hint)" }
        log(.info, line)
    }

    static func timestamp() -> String {
        var tv = timeval()
        gettimeofday(&tv, nil)
        var t = time_t(tv.tv_sec)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(tv.tv_usec) / 1000)
    }
}

/// What the per-request log line says; the path only, never the query (it may hold passwords).
public struct RequestLogEntry: Sendable {
    public var method: String
    public var path: String
    public var status: Int
    public var durationNanos: UInt64
    public var system: String?
    public var hint: String?
    public var remoteAddress: String

    public init(method: String, path: String, status: Int, durationNanos: UInt64,
                system: String? = nil, hint: String? = nil, remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.status = status
        self.durationNanos = durationNanos
        self.system = system
        self.hint = hint
        self.remoteAddress = remoteAddress
    }

    /// Milliseconds with one decimal (`0.3`), written without Foundation's formatter.
    var durationMillisText: String {
        let tenths = durationNanos / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
