/// The chaining state of a Merkle–Damgård hash with 64-byte blocks and a big-endian bit length
/// (SHA-1, SHA-256): what differs between them is the compression and the digest.
protocol BlockDigestState {
    init()
    /// Folds one 64-byte block into the state.
    mutating func compress(_ block: [UInt8])
    /// The digest of the state as it stands.
    var digest: [UInt8] { get }
}

extension BlockDigestState {
    /// The digest of `bytes`: the blocks, then the padding (0x80, zeros, the length in bits).
    static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var state = Self()
        var block = [UInt8](repeating: 0, count: 64)
        var fill = 0
        var length: UInt64 = 0
        for byte in bytes {
            block[fill] = byte
            fill += 1
            if fill == 64 {
                state.compress(block)
                fill = 0
            }
            length &+= 1
        }
        block[fill] = 0x80
        fill += 1
        if fill > 56 {
            for i in fill..<64 { block[i] = 0 }
            state.compress(block)
            fill = 0
        }
        for i in fill..<56 { block[i] = 0 }
        let bits = length &* 8
        for i in 0..<8 { block[56 + i] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(i))) }
        state.compress(block)
        return state.digest
    }
}
