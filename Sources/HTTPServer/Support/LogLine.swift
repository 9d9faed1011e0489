#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Formats log lines (text or JSON, with or without colour) and escapes what a client sent.
enum LogLine {
    // ANSI colours, used only when the output is a terminal.
    private static let reset = "\u{1B}[0m"
    private static let dim = "\u{1B}[2m"
    private static let red = "\u{1B}[31m"
    private static let green = "\u{1B}[32m"
    private static let yellow = "\u{1B}[33m"
    private static let magenta = "\u{1B}[35m"
    private static let cyan = "\u{1B}[36m"
    private static let highlight = "\u{1B}[1;30;43m"

    /// A plain line: text `12:00:00.123 [warning] message`, or a JSON object.
    static func message(_ level: LogLevel, kind: LogKind, _ message: String, format: LogFormat, colour: Bool) -> String {
        let now = Timestamp.now()
        switch format {
        case .json:
            var line = "{\"time\":\"\(now.iso)\",\"level\":\"\(level.name)\",\"kind\":\"\(kind.rawValue)\",\"msg\":"
            appendJSONString(message, to: &line)
            line += "}\n"
            return line
        case .text:
            var line = now.time
            line += " "
            switch kind {
            case .sms, .email:
                // Prominent with or without colour: a developer scans the log for these.
                line += colour ? "\(highlight) \(message) \(reset)" : "*** \(message)"
            case .message, .request:
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

    /// The per-request line: `12:00:00.123 POST /auth/login 200 0.4ms rows hint: …`.
    static func request(_ entry: RequestLogEntry, format: LogFormat, colour: Bool) -> String {
        let now = Timestamp.now()
        let method = escaped(entry.method), path = escaped(entry.path)
        switch format {
        case .json:
            var line = "{\"time\":\"\(now.iso)\",\"level\":\"info\",\"kind\":\"request\",\"method\":"
            appendJSONString(method, to: &line)
            line += ",\"path\":"
            appendJSONString(path, to: &line)
            line += ",\"status\":\(entry.status),\"durationMs\":\(entry.durationMillisText),\"system\":"
            if let system = entry.system { appendJSONString(escaped(system), to: &line) } else { line += "null" }
            line += ",\"hint\":"
            if let hint = entry.hint { appendJSONString(escaped(hint), to: &line) } else { line += "null" }
            if !entry.remoteAddress.isEmpty {
                line += ",\"remote\":"
                appendJSONString(escaped(entry.remoteAddress), to: &line)
            }
            line += "}\n"
            return line
        case .text:
            // One buffer reserved up front and plain appends: growing a String step by step
            // (interpolations, small-string spills) cost more than everything else in the line.
            var line = ""
            line.reserveCapacity(64 + method.utf8.count + path.utf8.count + (entry.hint?.utf8.count ?? 0))
            line.append(now.time)
            line.append(" ")
            line.append(method)
            line.append(" ")
            line.append(path)
            line.append(" ")
            if colour {
                let c = entry.status >= 500 ? red : entry.status >= 400 ? yellow : entry.status >= 300 ? cyan : green
                line.append(c)
            }
            appendDecimal(entry.status, to: &line)
            if colour { line.append(reset); line.append(" "); line.append(dim) } else { line.append(" ") }
            appendMillis(entry.durationNanos, to: &line)
            if let system = entry.system { line.append(" "); line.append(escaped(system)) }
            if colour { line.append(reset) }
            if let hint = entry.hint {
                line.append(colour ? " \(magenta)hint: " : " hint: ")
                line.append(escaped(hint))
                if colour { line.append(reset) }
            }
            line.append("\n")
            return line
        }
    }

    /// `n` in decimal, without a temporary String.
    static func appendDecimal(_ n: Int, to line: inout String) {
        guard n >= 0 else { line.append(String(n)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buf in
            var i = buf.count
            var v = n
            repeat {
                i -= 1
                buf[i] = UInt8(48 + v % 10)
                v /= 10
            } while v > 0
            line.append(String(decoding: UnsafeRawBufferPointer(rebasing: buf[i...]), as: UTF8.self))
        }
    }

    /// Milliseconds with one decimal and the unit: `0.4ms`.
    static func appendMillis(_ nanos: UInt64, to line: inout String) {
        let tenths = Int(min(nanos / 100_000, UInt64(Int.max)))
        appendDecimal(tenths / 10, to: &line)
        line.append(".")
        line.append(Character(Unicode.Scalar(UInt8(48 + tenths % 10))))
        line.append("ms")
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
