/// Writes JSON string literals by hand, for replies built without an encoder on hot paths.
package enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"…"` with quotes, backslashes and control characters escaped (RFC 8259 §7).
    package static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendQuoted($0, to: &out) }
    }

    /// The same for UTF-8 bytes: runs that need no escape are appended whole.
    package static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Fast path, the usual case on hot paths (tokens, e-mails, dates): nothing to escape, so
        // the bytes go in whole.
        var clean = 0
        while clean < bytes.count && !needsEscape(bytes[clean]) { clean += 1 }
        if clean == bytes.count {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        for (i, byte) in bytes.enumerated() where needsEscape(byte) {
            if i > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            runStart = i + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            default:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        if bytes.count > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count])) }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The quoted literal as a `String`.
    package static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
