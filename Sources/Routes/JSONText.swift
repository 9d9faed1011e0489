/// Writes JSON string literals by hand, for replies built without an encoder on hot paths.
enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"…"` with quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The quoted literal as a `String`.
    static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
