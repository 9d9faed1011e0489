import HTTPServer

/// Tokens that are checked without being stored: 64 random bits plus a SipHash-2-4 tag of them
/// under a secret key, written as a UUID v4. Unguessable without the key, nothing to remember per
/// login (so a login benchmark costs no memory), and `rotate` (on reset) voids every one issued.
final class SignedTokens: Sendable {
    let key: StateCell<(UInt64, UInt64)>
    private let random: any RandomSource

    init(random: any RandomSource) {
        self.random = random
        key = StateCell((random.next(), random.next()))
    }

    /// A new token.
    func issue() -> String {
        let (high, _) = UUIDText.stamp(high: random.next(), low: 0)
        return UUIDText.format(high: high, low: tag(high, key.value))
    }

    /// Whether `token` was issued under the current key.
    func isValid(_ token: String) -> Bool {
        guard let (high, low) = UUIDText.parse(token) else { return false }
        let (_, expected) = UUIDText.stamp(high: 0, low: tag(high, key.value))
        return low == expected && UUIDText.stamp(high: high, low: 0).0 == high
    }

    /// A new key: every token issued so far stops being valid.
    func rotate() {
        let fresh = (random.next(), random.next())
        key.withLock { $0 = fresh }
    }

    private func tag(_ message: UInt64, _ key: (UInt64, UInt64)) -> UInt64 {
        SipHash24.hash(message, key: key)
    }
}

/// SipHash-2-4 of one 64-bit word (Aumasson & Bernstein), a keyed PRF made for short inputs.
enum SipHash24 {
    static func hash(_ m: UInt64, key: (UInt64, UInt64)) -> UInt64 {
        var v0: UInt64 = key.0 ^ 0x736f_6d65_7073_6575
        var v1: UInt64 = key.1 ^ 0x646f_7261_6e64_6f6d
        var v2: UInt64 = key.0 ^ 0x6c79_6765_6e65_7261
        var v3: UInt64 = key.1 ^ 0x7465_6462_7974_6573
        @inline(__always) func round() {
            v0 &+= v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
            v2 &+= v3; v3 = rotl(v3, 16); v3 ^= v2
            v0 &+= v3; v3 = rotl(v3, 21); v3 ^= v0
            v2 &+= v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
        }
        v3 ^= m; round(); round(); v0 ^= m
        let last: UInt64 = 8 << 56   // message length 8 in the final block
        v3 ^= last; round(); round(); v0 ^= last
        v2 ^= 0xff
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }
}
