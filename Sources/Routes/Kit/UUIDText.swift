import HTTPServer

/// UUID v4 text built straight from two 64-bit words, without Foundation's `UUID` and its copies.
package enum UUIDText {
    /// Sets the version (4) and variant (10) bits the way RFC 9562 places them.
    package static func stamp(high: UInt64, low: UInt64) -> (UInt64, UInt64) {
        ((high & ~0xF000) | 0x4000, (low & ~(0xC0 << 56)) | (0x80 << 56))
    }

    /// A random one from `generator`, lower case (WireMock's stub ids).
    package static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        format(high: generator.next(), low: generator.next())
    }

    /// Whether `text` is a UUID, in any case.
    package static func isValid(_ text: String) -> Bool { parse(text) != nil }

    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, lower case, for the 128 bits `high:low` once stamped.
    package static func format(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buf in
            write(high: high, low: low, to: buf)
            return 36
        }
    }

    /// The same text appended to bytes (a reply being built), without a String in between.
    package static func append(high: UInt64, low: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buf in
            write(high: high, low: low, to: buf)
            out.append(contentsOf: UnsafeBufferPointer(buf))
        }
    }

    /// Writes the 36 bytes of the text into `buf` (36 bytes at least), eight digits at a time:
    /// the groups of four are written in pairs, `bbbb`+`cccc` and `dddd`+`eeee`, like the parse.
    private static func write(high: UInt64, low: UInt64, to buf: UnsafeMutableBufferPointer<UInt8>) {
        guard buf.count >= 36, let base = buf.baseAddress else { return }
        let (h, l) = stamp(high: high, low: low)
        let p = UnsafeMutableRawPointer(base)
        func store(_ digits: UInt64, at offset: Int) { p.storeBytes(of: digits.littleEndian, toByteOffset: offset, as: UInt64.self) }
        func storeHalves(_ digits: UInt64, at first: Int, _ second: Int) {
            p.storeBytes(of: UInt32(truncatingIfNeeded: digits).littleEndian, toByteOffset: first, as: UInt32.self)
            p.storeBytes(of: UInt32(truncatingIfNeeded: digits >> 32).littleEndian, toByteOffset: second, as: UInt32.self)
        }
        store(lowercaseHexDigits(UInt32(truncatingIfNeeded: h >> 32)), at: 0)
        storeHalves(lowercaseHexDigits(UInt32(truncatingIfNeeded: h)), at: 9, 14)
        storeHalves(lowercaseHexDigits(UInt32(truncatingIfNeeded: l >> 32)), at: 19, 24)
        store(lowercaseHexDigits(UInt32(truncatingIfNeeded: l)), at: 28)
        base[8] = 45; base[13] = 45; base[18] = 45; base[23] = 45
    }

    /// The eight lower-case hex digits of `v`, most significant first, as the bytes of a word
    /// (the first digit in its lowest byte). Every digit at once (SWAR).
    @inline(__always)
    private static func lowercaseHexDigits(_ v: UInt32) -> UInt64 {
        // Spread the nibbles one a byte, last digit in the lowest byte; then reverse the bytes.
        var x = UInt64(v)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        x = x.byteSwapped
        // '0' + n, and 39 more for n >= 10 ('a' is '0' + 49); n + 6 carries into bit 4 exactly then.
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return x &+ 0x3030_3030_3030_3030 &+ letters &* 39
    }

    /// The two words of a UUID written in any case, or nil for anything else.
    package static func parse(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8(parse)
    }

    /// The two words of a UUID written in lower case (as tokens are issued), or nil for anything
    /// else, upper-case hex digits included.
    package static func parseLowercase(_ text: String) -> (high: UInt64, low: UInt64)? {
        // In place when the text is contiguous (always, for a header value): no copy to make it so.
        if let words = text.utf8.withContiguousStorageIfAvailable({ parseLowercase($0) }) { return words }
        var text = text
        return text.withUTF8(parseLowercase)
    }

    private static func parseLowercase(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
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
        guard let a = lowercaseHexValue(word(0)), let bc = lowercaseHexValue(halves(9, 14)),
              let de = lowercaseHexValue(halves(19, 24)), let f = lowercaseHexValue(word(28)) else { return nil }
        return (a << 32 | bc, de << 32 | f)
    }

    /// The number eight lower-case hex digits spell (the first digit in the lowest byte of `w`,
    /// most significant), or nil when a byte is anything else. Every byte at once (SWAR).
    @inline(__always)
    private static func lowercaseHexValue(_ w: UInt64) -> UInt64? {
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
            guard let digit = FormDecoding.hexValue(bytes[i]) else { return nil }
            v = v << 4 | UInt64(digit)
        }
        return v
    }
}
