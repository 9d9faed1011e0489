/// HMAC-SHA256 (RFC 2104), and a compare that takes as long whatever the bytes: for signing and
/// checking the admin console's cookie and the admin token.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var block = key.count > blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }

    /// Whether `a` equals `b`, in time that depends on their lengths only (no early exit at the
    /// first difference, which would let a guesser learn a secret byte by byte).
    package static func constantTimeEquals<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
        where A.Element == UInt8, B.Element == UInt8 {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        if a.count != b.count { difference |= 1 }
        var j = b.startIndex
        for byte in a {
            // Compare against b while it lasts; past its end, against the byte itself (still one step each).
            let other = j < b.endIndex ? b[j] : ~byte
            difference |= byte ^ other
            if j < b.endIndex { j = b.index(after: j) }
        }
        return difference == 0
    }
}
