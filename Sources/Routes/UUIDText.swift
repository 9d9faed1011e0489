/// UUID v4 text built straight from two 64-bit words, without Foundation's `UUID` and its copies.
enum UUIDText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Sets the version (4) and variant (10) bits the way RFC 9562 places them.
    static func stamp(high: UInt64, low: UInt64) -> (UInt64, UInt64) {
        ((high & ~0xF000) | 0x4000, (low & ~(0xC0 << 56)) | (0x80 << 56))
    }

    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, lower case, for the 128 bits `high:low` once stamped.
    static func format(high: UInt64, low: UInt64) -> String {
        let (h, l) = stamp(high: high, low: low)
        return String(unsafeUninitializedCapacity: 36) { buf in
            var i = 0
            func put(_ word: UInt64, nibbles: Int, from shift: Int) {
                for k in 0..<nibbles {
                    buf[i] = hex[Int((word >> UInt64(shift - 4 * k)) & 0xF)]
                    i += 1
                }
            }
            put(h, nibbles: 8, from: 60); buf[i] = 45; i += 1
            put(h, nibbles: 4, from: 28); buf[i] = 45; i += 1
            put(h, nibbles: 4, from: 12); buf[i] = 45; i += 1
            put(l, nibbles: 4, from: 60); buf[i] = 45; i += 1
            put(l, nibbles: 12, from: 44)
            return 36
        }
    }

    /// The two words of a UUID written in any case, or nil for anything else.
    static func parse(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8(parse)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36, bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var n = 0
        for (i, c) in bytes.enumerated() where i != 8 && i != 13 && i != 18 && i != 23 {
            let v: UInt8
            switch c {
            case 48...57: v = c - 48
            case 97...102: v = c - 87
            case 65...70: v = c - 55
            default: return nil
            }
            if n < 16 { words.0 = words.0 << 4 | UInt64(v) } else { words.1 = words.1 << 4 | UInt64(v) }
            n += 1
        }
        return words
    }
}
