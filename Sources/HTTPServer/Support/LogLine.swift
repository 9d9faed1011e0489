#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Formats log lines (text or JSON, with or without colour) and escapes what a client sent.
enum LogLine {
    // ANSI colours, used only when the output is a terminal.
    private static var reset: StaticString { "\u{1B}[0m" }
    private static var dim: StaticString { "\u{1B}[2m" }
    private static var red: StaticString { "\u{1B}[31m" }
    private static var green: StaticString { "\u{1B}[32m" }
    private static var yellow: StaticString { "\u{1B}[33m" }
    private static var magenta: StaticString { "\u{1B}[35m" }
    private static var cyan: StaticString { "\u{1B}[36m" }
    private static var highlight: StaticString { "\u{1B}[1;30;43m" }

    /// A plain line: text `12:00:00.123 [warning] message`, or a JSON object.
    /// `fields` are JSON members after `msg` (nil values as null), for log readers that would
    /// otherwise parse the text; the text format shows the message only.
    static func message(_ level: LogLevel, kind: LogKind, _ message: String, fields: [(String, LogValue)] = [],
                        format: LogFormat, colour: Bool, tag: LogTag? = nil) -> String {
        let now = Timestamp.now()
        switch format {
        case .json:
            var line = "{\"time\":\"\(now.iso)\",\"level\":\"\(level.name)\",\"kind\":\"\(kind.rawValue)\",\"msg\":"
            appendJSONString(message, to: &line)
            if let tag {
                line += ","
                appendJSONString(tag.key, to: &line)
                line += ":"
                appendJSONString(tag.value, to: &line)
            }
            for (name, value) in fields {
                line += ","
                appendJSONString(name, to: &line)
                line += ":"
                switch value {
                case .text(let text?): appendJSONString(text, to: &line)
                case .text(nil): line += "null"
                case .number(let n): line += String(n)
                }
            }
            line += "}\n"
            return line
        case .text:
            var line = now.time
            line += " "
            if let tag { line += "[\(tag.key) \(LogLine.escaped(tag.short))] " }
            switch kind {
            case .sms, .email:
                // Prominent with or without colour: a developer scans the log for these.
                line += colour ? "\(highlight) \(message) \(reset)" : "*** \(message)"
            case .message, .request, .listening, .banner, .webSocket:
                switch level {
                case .info: line += message
                case .debug: line += colour ? "\(dim)[debug] \(message)\(reset)" : "[debug] \(message)"
                case .warning: line += colour ? "\(yellow)[warning]\(reset) \(message)" : "[warning] \(message)"
                case .error, .off: line += colour ? "\(red)[error]\(reset) \(message)" : "[error] \(message)"
                }
            }
            line += "\n"
            return line
        }
    }

    /// The per-request line: `12:00:00.123 POST /auth/login 200 0.4ms rows hint: …`, appended
    /// as bytes to `line` (no String built on the event loop; `clock` caches the second's digits).
    static func request(_ entry: RequestLogEntry, format: LogFormat, colour: Bool, tag: LogTag? = nil, clock: inout LogClock, to line: inout LogBytes) {
        request(method: entry.method, path: entry.path, status: entry.status, cut: entry.cut, duration: entry.durationNanos, system: entry.system,
                hint: entry.hint, remote: entry.remoteAddress, level: entry.level, format: format, colour: colour, tag: tag, clock: &clock, to: &line)
    }

    /// The per-request line from its fields, where they are (the transport's call: no entry built).
    static func request(method: String, path: String, status: Int, cut: RequestLogEntry.Cut?, duration: UInt64, system: String?, hint: String?,
                        remote: String, level: LogLevel, format: LogFormat, colour: Bool, tag: LogTag?, clock: inout LogClock, to line: inout LogBytes) {
        let now = Timestamp.now()
        switch format {
        case .json:
            append(#"{"time":""#, to: &line)
            clock.appendISO(now, to: &line)
            append(level == .debug ? #"","level":"debug","kind":"request","method":"# : #"","level":"info","kind":"request","method":"#, to: &line)
            appendEscaped(method, json: true, to: &line)
            append(#","path":"#, to: &line)
            appendEscaped(path, json: true, to: &line)
            append(#","status":"#, to: &line)
            if let cut {
                // Nothing was sent: no status, and what happened instead.
                append(cut == .closed ? #"null,"cut":"closed""# : #"null,"cut":"reset""#, to: &line)
            } else {
                appendDecimal(status, to: &line)
            }
            appendJSONDurationAndSystem(duration, system, to: &line)
            append(#","hint":"#, to: &line)
            if let hint { appendEscaped(hint, json: true, to: &line) } else { append("null", to: &line) }
            appendJSONEnd(remote: remote, tag: tag, to: &line)
        case .text:
            clock.appendTime(now, to: &line)
            line.append(UInt8(ascii: " "))
            if let tag { appendTag(tag, json: false, to: &line) }
            appendEscaped(method, json: false, to: &line)
            line.append(UInt8(ascii: " "))
            appendEscaped(path, json: false, to: &line)
            line.append(UInt8(ascii: " "))
            if colour {
                let c = status >= 500 ? red : status >= 400 ? yellow : status >= 300 ? cyan : green
                line.append(c)
            }
            if let cut {
                append(cut == .closed ? "closed" : "reset", to: &line)
            } else {
                appendDecimal(status, to: &line)
            }
            appendDurationAndSystem(duration, system, colour: colour, to: &line)
            if let hint {
                line.append(UInt8(ascii: " "))
                if colour { line.append(magenta) }
                append("hint: ", to: &line)
                appendEscaped(hint, json: false, to: &line)
                if colour { line.append(reset) }
            }
            line.append(UInt8(ascii: "\n"))
        }
    }

    /// A line's mark (`[instance 1a2b3c4d] ` in text, `,"instance":"…"` in JSON).
    private static func appendTag(_ tag: LogTag, json: Bool, to line: inout LogBytes) {
        if !json {
            line.append(UInt8(ascii: "["))
            appendEscaped(tag.key, json: false, to: &line)
            line.append(UInt8(ascii: " "))
            appendEscaped(tag.short, json: false, to: &line)
            append("] ", to: &line)
        } else {
            line.append(UInt8(ascii: ","))
            appendEscaped(tag.key, json: true, to: &line)
            line.append(UInt8(ascii: ":"))
            appendEscaped(tag.value, json: true, to: &line)
        }
    }

    /// The per-message line of a WebSocket: `12:00:00.123 WS LOGIN_CUSTOMER #1 → CUSTOMER_API_TOKEN 52µs gateway`.
    static func webSocketMessage(_ entry: MessageLogEntry, duration: UInt64, remote: String, format: LogFormat, colour: Bool,
                                 tag: LogTag? = nil, clock: inout LogClock, to line: inout LogBytes) {
        webSocketMessage(type: entry.type, id: entry.id, outcome: entry.outcome, system: entry.system, level: entry.level, duration: duration,
                         remote: remote, format: format, colour: colour, tag: tag, clock: &clock, to: &line)
    }

    /// The per-message line from its fields, where they are (the transport's call: no entry copied).
    static func webSocketMessage(type: String, id: String?, outcome: String, system: String?, level: LogLevel, duration: UInt64, remote: String,
                                 format: LogFormat, colour: Bool, tag: LogTag?, clock: inout LogClock, to line: inout LogBytes) {
        let now = Timestamp.now()
        switch format {
        case .json:
            append(#"{"time":""#, to: &line)
            clock.appendISO(now, to: &line)
            append(level == .debug ? #"","level":"debug","kind":"webSocket","type":"# : #"","level":"info","kind":"webSocket","type":"#, to: &line)
            appendEscaped(type, json: true, to: &line)
            append(#","id":"#, to: &line)
            if let id { appendEscaped(id, json: true, to: &line) } else { append("null", to: &line) }
            append(#","outcome":"#, to: &line)
            appendEscaped(outcome, json: true, to: &line)
            appendJSONDurationAndSystem(duration, system, to: &line)
            appendJSONEnd(remote: remote, tag: tag, to: &line)
        case .text:
            clock.appendTime(now, to: &line)
            if let tag {
                line.append(UInt8(ascii: " "))
                appendTag(tag, json: false, to: &line)
                append("WS ", to: &line)
            } else {
                append(" WS ", to: &line)
            }
            appendEscaped(type.isEmpty ? "-" : type, json: false, to: &line)
            if let id {
                append(" #", to: &line)
                appendEscaped(id, json: false, to: &line)
            }
            append(" → ", to: &line)
            if colour { line.append(cyan) }
            appendEscaped(outcome, json: false, to: &line)
            appendDurationAndSystem(duration, system, colour: colour, to: &line)
            line.append(UInt8(ascii: "\n"))
        }
    }

    /// The JSON line's `durationMs` and `system` members. A stub's column (`stubs/<name>`,
    /// `Substitute.logName`) is two members here: `system` is `stubs`, as the journal's, and
    /// `stub` the name (both escaped from the column's own bytes).
    @inline(__always)
    private static func appendJSONDurationAndSystem(_ duration: UInt64, _ system: String?, to line: inout LogBytes) {
        append(#","durationMs":"#, to: &line)
        appendMilliseconds(duration, to: &line)
        append(#","system":"#, to: &line)
        guard var system else { return append("null", to: &line) }
        system.withUTF8 { bytes in
            guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return appendEscaped(bytes, json: true, to: &line) }
            appendEscaped(UnsafeBufferPointer(rebasing: bytes[..<slash]), json: true, to: &line)
            append(#","stub":"#, to: &line)
            appendEscaped(UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), json: true, to: &line)
        }
    }

    /// The JSON line's last members (the peer, when known, and the tag) and its end.
    @inline(__always)
    private static func appendJSONEnd(remote: String, tag: LogTag?, to line: inout LogBytes) {
        if !remote.isEmpty {
            append(#","remote":"#, to: &line)
            appendEscaped(remote, json: true, to: &line)
        }
        if let tag { appendTag(tag, json: true, to: &line) }
        append("}\n", to: &line)
    }

    /// The text line's tail after its outcome: the duration and the owning system, dimmed when
    /// coloured (the colour of the outcome ends first).
    @inline(__always)
    private static func appendDurationAndSystem(_ duration: UInt64, _ system: String?, colour: Bool, to line: inout LogBytes) {
        if colour {
            line.append(reset)
            line.append(UInt8(ascii: " "))
            line.append(dim)
        } else {
            line.append(UInt8(ascii: " "))
        }
        appendDuration(duration, to: &line)
        if let system {
            line.append(UInt8(ascii: " "))
            appendEscaped(system, json: false, to: &line)
        }
        if colour { line.append(reset) }
    }

    /// A literal's bytes, copied from its static storage in one go.
    @inline(__always)
    private static func append(_ text: StaticString, to line: inout LogBytes) {
        line.append(text)
    }

    /// A duration for a person: `39µs` below a millisecond (most answers take tens of µs, which
    /// `0.0ms` hid), `1.4ms` from there on.
    static func appendDuration(_ nanos: UInt64, to line: inout LogBytes) {
        if nanos < 1_000_000 {
            appendDecimal(nanos / 1_000, to: &line)
            append("µs", to: &line)
            return
        }
        let tenths = nanos / 100_000
        appendDecimal(tenths / 10, to: &line)
        let digit = UInt8(truncatingIfNeeded: 48 + tenths % 10)
        line.append(count: 4) { p in
            p[0] = UInt8(ascii: "."); p[1] = digit; p[2] = UInt8(ascii: "m"); p[3] = UInt8(ascii: "s")
        }
    }

    /// Milliseconds with three decimals (µs resolution) for JSON: `0.039`.
    static func appendMilliseconds(_ nanos: UInt64, to line: inout LogBytes) {
        let micros = nanos / 1_000
        appendDecimal(micros / 1_000, to: &line)
        let fraction = micros % 1_000
        line.append(count: 4) { p in
            p[0] = UInt8(ascii: ".")
            p[1] = UInt8(truncatingIfNeeded: 48 + fraction / 100)
            p[2] = UInt8(truncatingIfNeeded: 48 + fraction / 10 % 10)
            p[3] = UInt8(truncatingIfNeeded: 48 + fraction % 10)
        }
    }

    /// `n` in decimal, digits written by hand.
    static func appendDecimal(_ n: Int, to line: inout LogBytes) {
        if n < 0 { line.append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(n.magnitude), to: &line)
    }

    /// `n` in decimal, digits written by hand.
    static func appendDecimal(_ n: UInt64, to line: inout LogBytes) {
        if n < 10 {
            line.append(UInt8(truncatingIfNeeded: 48 + n))
            return
        }
        if n < 1000 {
            // Statuses and most durations: two or three digits, no loops.
            let hundreds = UInt8(truncatingIfNeeded: n / 100), tens = UInt8(truncatingIfNeeded: n / 10 % 10)
            let ones = UInt8(truncatingIfNeeded: n % 10)
            if hundreds == 0 {
                line.append(count: 2) { p in p[0] = 48 + tens; p[1] = 48 + ones }
            } else {
                line.append(count: 3) { p in p[0] = 48 + hundreds; p[1] = 48 + tens; p[2] = 48 + ones }
            }
            return
        }
        var width = 0, t = n
        repeat {
            width += 1
            t /= 10
        } while t > 0
        line.append(count: width) { p in
            var v = n, i = width
            while i > 0 {
                i -= 1
                p[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
            }
        }
    }

    /// Appends `text` escaped as `escaped(_:)` does and, for JSON, as a quoted JSON string
    /// (the backslashes of those escapes doubled, quotes and backslashes escaped). Text without
    /// anything to escape (the usual case) is copied in one go after one scan of its bytes.
    @inline(__always)
    static func appendEscaped(_ text: String, json: Bool, to line: inout LogBytes) {
        // Native strings (small ones too) are contiguous: no copy of the string, no closure context.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped($0, json: json, to: &line) }
        if done == nil {
            var text = text
            text.withUTF8 { appendEscaped($0, json: json, to: &line) }
        }
    }

    /// `appendEscaped` on the text's UTF-8.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, json: Bool, to line: inout LogBytes) {
        // Printable ASCII (the usual case) in one test a byte; other text is scanned again
        // for what needs escaping (non-ASCII text may need none).
        if isPlainASCII(bytes, json: json) {
            if json {
                line.reserve(bytes.count + 2)
                line.append(UInt8(ascii: "\""))
                line.append(bytes)
                line.append(UInt8(ascii: "\""))
            } else {
                line.append(bytes)
            }
            return
        }
        if json { line.append(UInt8(ascii: "\"")) }
        appendEscapedSlowly(bytes, json: json, to: &line)
        if json { line.append(UInt8(ascii: "\"")) }
    }

    /// Text that is not all printable ASCII: copied whole when nothing in it needs escaping.
    @inline(never)
    private static func appendEscapedSlowly(_ bytes: UnsafeBufferPointer<UInt8>, json: Bool, to line: inout LogBytes) {
        var clean = true
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F || (json && (b == 0x22 || b == 0x5C)) { clean = false; break }
            if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] < 0xA0 { clean = false; break }
            if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { clean = false; break }
            i += 1
        }
        if clean {
            line.append(bytes)
            return
        }
        func control(_ value: UInt32, to line: inout LogBytes) {
            if json { line.append(0x5C) }
            line.append(0x5C)
            switch value {
            case 0x0A: line.append(UInt8(ascii: "n"))
            case 0x0D: line.append(UInt8(ascii: "r"))
            case 0x09: line.append(UInt8(ascii: "t"))
            default:
                line.append("u{")
                line.append(String(value, radix: 16, uppercase: true))
                line.append(UInt8(ascii: "}"))
            }
        }
        i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F {
                control(UInt32(b), to: &line)
            } else if json && (b == 0x22 || b == 0x5C) {
                line.append(0x5C)
                line.append(b)
            } else if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] < 0xA0 {
                control(UInt32(bytes[i + 1]), to: &line)
                i += 1
            } else if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                control(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029, to: &line)
                i += 2
            } else {
                line.append(b)
            }
            i += 1
        }
    }

    /// Whether every byte is printable ASCII (and, for JSON, neither a quote nor a backslash):
    /// eight bytes a test (the last word overlaps the one before it), the rest one by one.
    @inline(__always)
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>, json: Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        if count < 8 {
            // A short text as one word, padded with a byte that needs no escaping.
            var word: UInt64 = 0x6161_6161_6161_6161
            withUnsafeMutableBytes(of: &word) { $0.baseAddress?.copyMemory(from: base, byteCount: count) }
            return isPlainASCII(word, json: json)
        }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while true {
            if !isPlainASCII(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), json: json) { return false }
            if offset == count - 8 { return true }
            offset = min(offset + 8, count - 8)
        }
    }

    /// Whether each of the word's eight bytes is in 0x20...0x7E (and, for JSON, is neither 0x22
    /// nor 0x5C). With no byte of 0x80 or more, adding 0x60 to a byte sets its top bit exactly
    /// when it is 0x20 or more, and adding 0x01 exactly when it is 0x7F; no sum carries into the
    /// next byte.
    @inline(__always)
    private static func isPlainASCII(_ word: UInt64, json: Bool) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        guard (word | (word &+ ones)) & high == 0, (word &+ 0x6060_6060_6060_6060) & high == high else { return false }
        guard json else { return true }
        // A zero byte in `word ^ c` is a byte equal to c (exact here: every byte is below 0x80).
        let quote = word ^ 0x2222_2222_2222_2222, backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & high == 0
    }

    /// The line reporting lines the queue had to drop.
    static func dropNotice(_ count: Int, format: LogFormat, colour: Bool) -> String {
        message(.warning, kind: .message, "\(count) log line\(count == 1 ? "" : "s") dropped (the log output was not being read fast enough)",
                format: format, colour: colour)
    }

    /// `text` with every character that could forge or garble a line made visible: C0 controls
    /// (newline, CR, tab, ESC…), DEL, C1 controls and the Unicode line/paragraph separators.
    /// Text without any (the usual case) is returned as is, after one scan of its bytes.
    static func escaped(_ text: String) -> String {
        var text = text
        let clean = text.withUTF8 { bytes -> Bool in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b == 0x7F { return false }
                // C1 controls are C2 80...C2 9F in UTF-8; U+2028/U+2029 are E2 80 A8/A9.
                if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] < 0xA0 { return false }
                if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { return false }
                i += 1
            }
            return true
        }
        if clean { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Appends `text` as a JSON string literal (quotes, backslash and controls escaped).
    static func appendJSONString(_ text: String, to line: inout String) {
        line += "\""
        var needsEscape = false
        for b in text.utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            needsEscape = true
            break
        }
        if !needsEscape {
            line += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": line += "\\\""
                case "\\": line += "\\\\"
                case "\n": line += "\\n"
                case "\r": line += "\\r"
                case "\t": line += "\\t"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        line.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        line += "\""
    }
}

/// The digits of the current second for both timestamp formats, recomputed only when the second
/// changes (as `HTTPResponseEncoder` caches its Date); owned by whoever formats (under its lock).
struct LogClock {
    private var second = Int.min
    private var isoSecond = Int.min
    /// `00:14:43` (8 bytes, in memory order).
    private var time: UInt64 = 0
    /// `2026-11-22T00:14:43` (the first 19 bytes).
    private var iso: (UInt64, UInt64, UInt64) = (0, 0, 0)

    /// Appends `00:14:43.123` (UTC).
    mutating func appendTime(_ now: Timestamp, to line: inout LogBytes) {
        if now.seconds != second {
            second = now.seconds
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            Self.keep(now.time, count: 8, in: &words)
            time = words.0
        }
        let time = time, millis = now.millis
        line.append(count: 12) { p in
            UnsafeMutableRawPointer(p).storeBytes(of: time, as: UInt64.self)
            Self.putMillis(millis, at: p + 8)
        }
    }

    /// Appends `2026-11-22T00:14:43.123Z`.
    mutating func appendISO(_ now: Timestamp, to line: inout LogBytes) {
        if now.seconds != isoSecond {
            isoSecond = now.seconds
            Self.keep(now.iso, count: 19, in: &iso)
        }
        let millis = now.millis
        withUnsafeBytes(of: iso) { digits in
            line.append(count: 24) { p in
                if let source = digits.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: source, byteCount: 19) }
                Self.putMillis(millis, at: p + 19)
                p[23] = UInt8(ascii: "Z")
            }
        }
    }

    /// The first `count` bytes of `text` (at least that long, at most 24) into `storage`.
    private static func keep(_ text: String, count: Int, in storage: inout (UInt64, UInt64, UInt64)) {
        var text = text
        text.withUTF8 { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(source).prefix(count))) }
        }
    }

    /// `.123` at `p` (4 bytes).
    @inline(__always)
    private static func putMillis(_ millis: Int, at p: UnsafeMutablePointer<UInt8>) {
        p[0] = UInt8(ascii: ".")
        p[1] = UInt8(truncatingIfNeeded: 48 + millis / 100 % 10)
        p[2] = UInt8(truncatingIfNeeded: 48 + millis / 10 % 10)
        p[3] = UInt8(truncatingIfNeeded: 48 + millis % 10)
    }
}

/// The wall-clock time of a line, with its digits written by hand (no formatter on the hot path).
struct Timestamp {
    let seconds: Int
    let millis: Int

    static func now() -> Timestamp {
        var tv = timeval()
        gettimeofday(&tv, nil)
        return Timestamp(seconds: Int(tv.tv_sec), millis: Int(tv.tv_usec) / 1000)
    }

    /// `00:14:43.123` (UTC), from the seconds of the day: no calendar work for the text format.
    var time: String {
        let day = seconds % 86_400
        return Timestamp.digits(12) { put, sep in
            put(day / 3600, 2); sep(58); put(day / 60 % 60, 2); sep(58); put(day % 60, 2); sep(46); put(millis, 3)
        }
    }

    /// `2026-11-22T00:14:43.123Z`
    var iso: String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return Timestamp.digits(24) { put, sep in
            put(Int(parts.tm_year) + 1900, 4); sep(45); put(Int(parts.tm_mon) + 1, 2); sep(45); put(Int(parts.tm_mday), 2)
            sep(84); put(Int(parts.tm_hour), 2); sep(58); put(Int(parts.tm_min), 2); sep(58); put(Int(parts.tm_sec), 2)
            sep(46); put(millis, 3); sep(90)
        }
    }

    /// A string of exactly `count` ASCII bytes written by `body` through `put(value, width)` and `sep(byte)`.
    private static func digits(_ count: Int, _ body: ((Int, Int) -> Void, (UInt8) -> Void) -> Void) -> String {
        String(unsafeUninitializedCapacity: count) { buf in
            var i = 0
            body({ value, width in
                var v = value
                for k in stride(from: width - 1, through: 0, by: -1) {
                    buf[i + k] = UInt8(48 + v % 10)
                    v /= 10
                }
                i += width
            }, { c in
                buf[i] = c
                i += 1
            })
            return i
        }
    }
}
