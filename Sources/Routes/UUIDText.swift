/// UUID v4 text built straight from two 64-bit words, without Foundation's `UUID` and its copies.
enum UUIDText {
    /// Sets the version (4) and variant (10) bits the way RFC 9562 places them.
    static func stamp(high: UInt64, low: UInt64) -> (UInt64, UInt64) {
        ((high & ~0xF000) | 0x4000, (low & ~(0xC0 << 56)) | (0x80 << 56))
    }

    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, lower case, for the 128 bits `high:low` once stamped.
    static func format(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buf in
            write(high: high, low: low, to: buf)
            return 36
        }
    }

    /// The same text appended to bytes (a reply being built), without a String in between.
    static func append(high: UInt64, low: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buf in
            write(high: high, low: low, to: buf)
            out.append(contentsOf: UnsafeBufferPointer(buf))
        }
    }

    /// Writes the 36 bytes of the text into `buf` (36 bytes at least).
    private static func write(high: UInt64, low: UInt64, to buf: UnsafeMutableBufferPointer<UInt8>) {
        let (h, l) = stamp(high: high, low: low)
        var i = 0
        func put(_ word: UInt64, nibbles: Int, from shift: Int) {
            for k in 0..<nibbles {
                let n = UInt8(truncatingIfNeeded: word >> UInt64(shift - 4 * k)) & 0xF
                buf[i] = n < 10 ? 48 + n : 87 + n
                i += 1
            }
        }
        put(h, nibbles: 8, from: 60); buf[i] = 45; i += 1
        put(h, nibbles: 4, from: 28); buf[i] = 45; i += 1
        put(h, nibbles: 4, from: 12); buf[i] = 45; i += 1
        put(l, nibbles: 4, from: 60); buf[i] = 45; i += 1
        put(l, nibbles: 12, from: 44)
    }

    /// The two words of a UUID written in any case, or nil for anything else.
    static func parse(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8 { parse($0, lowercaseOnly: false) }
    }

    /// The two words of a UUID written in lower case (as tokens are issued), or nil for anything
    /// else, upper-case hex digits included.
    static func parseLowercase(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8 { parse($0, lowercaseOnly: true) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) -> (high: UInt64, low: UInt64)? {
        // Group by group, with no enumeration or table: this runs on every request with a token.
        guard bytes.count == 36, bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45,
              let a = hex(bytes, 0, 8, lowercaseOnly), let b = hex(bytes, 9, 13, lowercaseOnly),
              let c = hex(bytes, 14, 18, lowercaseOnly), let d = hex(bytes, 19, 23, lowercaseOnly),
              let e = hex(bytes, 24, 36, lowercaseOnly) else { return nil }
        return (a << 32 | b << 16 | c, d << 48 | e)
    }

    @inline(__always)
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ lowercaseOnly: Bool) -> UInt64? {
        var v: UInt64 = 0
        for i in from..<to {
            let c = bytes[i]
            let digit: UInt8
            if c &- 48 < 10 { digit = c &- 48 }
            else if c &- 97 < 6 { digit = c &- 87 }
            else if !lowercaseOnly && c &- 65 < 6 { digit = c &- 55 }
            else { return nil }
            v = v << 4 | UInt64(digit)
        }
        return v
    }
}
