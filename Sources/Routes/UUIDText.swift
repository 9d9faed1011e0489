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
        return text.withUTF8(parse)
    }

    /// The two words of a UUID written in lower case (as tokens are issued), or nil for anything
    /// else, upper-case hex digits included.
    static func parseLowercase(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8 { bytes in
            // Eight digits at a time (this runs on every request with a token): the groups of four
            // are read in pairs, `bbbb`+`cccc` and `dddd`+`eeee`, so every word holds eight digits.
            guard bytes.count == 36, let base = bytes.baseAddress,
                  bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45 else { return nil }
            let p = UnsafeRawPointer(base)
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            func halves(_ first: Int, _ second: Int) -> UInt64 {
                UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: first, as: UInt32.self)))
                    | UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: second, as: UInt32.self))) << 32
            }
            guard let a = lowercaseHex8(word(0)), let bc = lowercaseHex8(halves(9, 14)),
                  let de = lowercaseHex8(halves(19, 24)), let f = lowercaseHex8(word(28)) else { return nil }
            return (a << 32 | bc, de << 32 | f)
        }
    }

    /// The number eight lower-case hex digits spell (the first digit in the lowest byte of `w`,
    /// most significant), or nil when a byte is anything else. Every byte at once (SWAR).
    @inline(__always)
    private static func lowercaseHex8(_ w: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        guard w & high == 0 else { return nil }
        // For bytes below 0x80, adding 0x80 - n sets a byte's top bit exactly when it is >= n
        // (the sum stays below 0x100, so nothing carries into the next byte).
        func atLeast(_ n: UInt64) -> UInt64 { (w &+ (0x80 - n) &* ones) & high }
        let digits = atLeast(0x30) & ~atLeast(0x3A)    // 0-9
        let letters = atLeast(0x61) & ~atLeast(0x67)   // a-f
        guard digits | letters == high else { return nil }
        // A digit's value is its low four bits; a letter's is those (1 for `a`) plus 9.
        var v = (w & 0x0F0F_0F0F_0F0F_0F0F) &+ (letters >> 7) &* 9
        // Pack the eight nibbles, first digit most significant.
        v = v.byteSwapped
        v = (v | v >> 4) & 0x00FF_00FF_00FF_00FF
        v = (v | v >> 8) & 0x0000_FFFF_0000_FFFF
        v = (v | v >> 16) & 0xFFFF_FFFF
        return v
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36, bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45,
              let a = hex(bytes, 0, 8), let b = hex(bytes, 9, 13), let c = hex(bytes, 14, 18),
              let d = hex(bytes, 19, 23), let e = hex(bytes, 24, 36) else { return nil }
        return (a << 32 | b << 16 | c, d << 48 | e)
    }

    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> UInt64? {
        var v: UInt64 = 0
        for i in from..<to {
            let c = bytes[i]
            let digit: UInt8
            switch c {
            case 48...57: digit = c - 48
            case 97...102: digit = c - 87
            case 65...70: digit = c - 55
            default: return nil
            }
            v = v << 4 | UInt64(digit)
        }
        return v
    }
}
