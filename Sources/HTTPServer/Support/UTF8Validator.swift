/// Incremental UTF-8 validation (RFC 3629) across chunk boundaries, so a text message split
/// into fragments (or read in pieces) is rejected at the first invalid byte.
package struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current sequence.
    private var remaining: UInt8 = 0
    /// The allowed range of the next continuation byte; narrower than 80–BF right after lead
    /// bytes E0, ED, F0, F4 to reject overlong forms, surrogates and code points past U+10FFFF.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    package init() {}

    /// True when the bytes seen so far end on a character boundary.
    package var isComplete: Bool { remaining == 0 }

    package mutating func reset() { self = UTF8Validator() }

    /// Validates the next chunk; false as soon as a byte cannot start or continue valid UTF-8.
    package mutating func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while i < count {
            if remaining == 0 {
                // ASCII fast path: eight bytes at a time while no high bit is set.
                while i + 8 <= count {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 != 0 { break }
                    i += 8
                }
                if i == count { break }
                let byte = base[i]
                i += 1
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: remaining = 1
                case 0xE0: remaining = 2; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
                case 0xED: remaining = 2; upper = 0x9F
                case 0xF0: remaining = 3; lower = 0x90
                case 0xF1...0xF3: remaining = 3
                case 0xF4: remaining = 3; upper = 0x8F
                default: return false
                }
            } else {
                let byte = base[i]
                i += 1
                guard byte >= lower, byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Validates a complete byte sequence (such as a close reason) in one call.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isComplete
    }
}
