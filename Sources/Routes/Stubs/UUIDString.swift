import HTTPServer

/// A random version-4 UUID in lower case, as WireMock's ids are.
enum UUIDString {
    static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { b -> String in
            let h = String(b, radix: 16)
            return h.count == 1 ? "0" + h : h
        }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// Whether `text` is a UUID (any case).
    static func isValid(_ text: String) -> Bool {
        let c = Array(text.utf8)
        guard c.count == 36 else { return false }
        for (i, b) in c.enumerated() {
            if [8, 13, 18, 23].contains(i) { if b != UInt8(ascii: "-") { return false } } else if FormDecoding.hexValue(b) == nil { return false }
        }
        return true
    }
}
