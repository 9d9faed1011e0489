import HTTPServer

/// Tokens that are checked without being stored: 64 random bits plus a SipHash-2-4 tag of them
/// under a secret key, written as a UUID v4. Unguessable without the key, nothing to remember per
/// login (so a login benchmark costs no memory), and `rotate` (on reset) voids every one issued.
/// A token issued to an account carries a tag of that account in its top bits (covered by the
/// signature), so deleting the account ends its sessions without a table of tokens.
package final class SignedTokens: Sendable {
    private struct KeyState {
        var key: (UInt64, UInt64)
        /// Tokens revoked or expired one by one (by their random half), until the next rotation:
        /// only the admin API adds to it, so it stays small.
        var revoked: Set<UInt64> = []
        /// Issued under the current key, for the count `revoke(nil)` reports.
        var issued = 0
        /// Of `revoked`, those voided by `expire`, and the keys `expire(nil)` retired (the newest
        /// few): only read to explain a refusal (the hint), never on the accepting path.
        var expired: Set<UInt64> = []
        var expiredKeys: [(UInt64, UInt64)] = []
        /// Account tags (`accountMask` bits) whose accounts were deleted: their tokens are void.
        var ended: Set<UInt64> = []
        /// How many times an account was deleted under this key, by account: a re-created
        /// account gets another tag, so the old account's tokens stay void and its own work.
        var generations: [String: UInt64] = [:]
        /// Issued since the last `rotate` (a system's reset): a revocation of every token and a
        /// restore keep it. Counted here, under the lock issuing already takes.
        var issuedSinceRotation = 0
    }

    /// The top bits of a token's random half that name its account (the rest stay random).
    static let accountMask: UInt64 = 0xFFFF_FF00_0000_0000

    private let state: Locked<KeyState>
    private let random: any RandomSource
    /// Signalled when the key or the revoked set changes (rotation, a revoke, restore): what the
    /// state file keeps. Issuing a token changes nothing worth saving, so a login never wakes the state writer.
    package let keyChanges = ChangeSignal()

    package init(random: any RandomSource) {
        self.random = random
        state = Locked(KeyState(key: (random.next(), random.next())))
    }

    /// A new token.
    package func issue() -> String {
        let (high, low) = issueWords()
        return UUIDText.format(high: high, low: low)
    }

    /// A new token as the two words `UUIDText` writes, for replies that append its text to bytes;
    /// with `account`, bound to it (deleting the account voids it).
    package func issueWords(account: String? = nil) -> (high: UInt64, low: UInt64) {
        var (high, _) = UUIDText.stamp(high: random.next(), low: 0)
        let (key, generation) = state.withLock { s in
            s.issued += 1
            s.issuedSinceRotation += 1
            return (s.key, account.flatMap { s.generations.isEmpty ? nil : s.generations[$0] } ?? 0)
        }
        if let account { high = (high & ~SignedTokens.accountMask) | accountTag(account, generation) }
        return (high, tag(high, key))
    }

    /// Ends every session of `account` (it was deleted): its tokens stop being valid, and a
    /// re-created account of the same name gets tokens of its own.
    package func endSessions(of account: String) {
        state.withLock { s in
            let generation = s.generations[account] ?? 0
            s.ended.insert(accountTag(account, generation))
            s.generations[account] = generation + 1
        }
        keyChanges.changed()
    }

    /// Whether a refused token belonged to a deleted account (only read to explain a refusal).
    package func accountWasDeleted(_ token: String) -> Bool {
        guard let (high, _) = UUIDText.parseLowercase(token) else { return false }
        return state.withLock { $0.ended.contains(high & SignedTokens.accountMask) }
    }

    /// The account's tag: a hash of its name (FNV-1a) and its generation, mixed (SplitMix64's
    /// finaliser). It needs no key: the token's signature covers it, so it cannot be forged, and a
    /// rotation voids every token anyway.
    private func accountTag(_ account: String, _ generation: UInt64) -> UInt64 {
        var account = account
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        account.withUTF8 { bytes in
            for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        var z = h ^ (generation &* 0x9e37_79b9_7f4a_7c15)
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return (z ^ (z >> 31)) & SignedTokens.accountMask
    }

    /// Whether `token` was issued under the current key and not revoked since. Compared exactly:
    /// tokens are issued in lower case, and the same token in upper case is another token.
    package func isValid(_ token: String) -> Bool {
        // One pass over the bytes that refuses upper case as it parses (a separate scan for upper
        // case, then a general parse, cost more than the rest of the check).
        guard let (high, low) = UUIDText.parseLowercase(token) else { return false }
        let (key, revoked) = state.withLock { s in
            (s.key, (!s.revoked.isEmpty && s.revoked.contains(high)) || (!s.ended.isEmpty && s.ended.contains(high & SignedTokens.accountMask)))
        }
        let (_, expected) = UUIDText.stamp(high: 0, low: tag(high, key))
        return !revoked && low == expected && UUIDText.stamp(high: high, low: 0).0 == high
    }

    /// Voids one valid token (1) or, with nil, every token issued so far (their number).
    package func revoke(_ token: String?) -> Int {
        guard let token else {
            let fresh = (random.next(), random.next())
            let count = state.withLock { s in
                let count = max(0, s.issued - s.revoked.count)
                s = KeyState(key: fresh, issuedSinceRotation: s.issuedSinceRotation)
                return count
            }
            keyChanges.changed()
            return count
        }
        guard isValid(token), let (high, _) = UUIDText.parse(token) else { return 0 }
        let revoked = state.withLock { $0.revoked.insert(high).inserted ? 1 : 0 }
        if revoked > 0 { keyChanges.changed() }
        return revoked
    }

    /// Like `revoke`, remembering that the tokens expired, so a refusal can say so (the original
    /// never expires tokens: an expired one is refused as an unknown one, with a hint).
    package func expire(_ token: String?) -> Int {
        guard let token else {
            let old = key
            let count = revoke(nil)
            state.withLock { s in s.expiredKeys = [old] }
            return count
        }
        guard isValid(token), let (high, _) = UUIDText.parse(token) else { return 0 }
        let count = revoke(token)
        state.withLock { s in _ = s.expired.insert(high) }
        return count
    }

    /// Whether a refused token was voided by `expire` (one by one, or with every token of its key).
    package func wasExpired(_ token: String) -> Bool {
        guard let (high, low) = UUIDText.parseLowercase(token) else { return false }
        let (key, expired, oldKeys) = state.withLock { s in (s.key, s.expired.contains(high), s.expiredKeys) }
        return (expired ? [key] : oldKeys).contains { candidate in
            UUIDText.stamp(high: 0, low: tag(high, candidate)).1 == low
        }
    }

    /// A new key: every token issued so far stops being valid.
    package func rotate() {
        _ = revoke(nil)
        state.withLock { $0.issuedSinceRotation = 0 }
    }

    /// How many tokens were issued since the last `rotate`.
    package var issuedSinceRotation: Int { state.withLock { $0.issuedSinceRotation } }

    /// The current signing key (for the state file).
    package var key: (UInt64, UInt64) { state.withLock { $0.key } }

    /// The key, the random halves of the tokens revoked one by one (sorted), and the deleted
    /// accounts' tags and generations (for the state file).
    var keyAndRevoked: (key: (UInt64, UInt64), revoked: [UInt64], ended: [UInt64], generations: [String: UInt64]) {
        state.withLock { ($0.key, $0.revoked.sorted(), $0.ended.sorted(), $0.generations) }
    }

    /// Puts back a saved key (and the tokens revoked under it, the accounts deleted): every other
    /// token issued under it is valid again.
    package func restore(key: (UInt64, UInt64), revoked: [UInt64] = [], ended: [UInt64] = [], generations: [String: UInt64] = [:]) {
        state.withLock {
            $0 = KeyState(key: key, revoked: Set(revoked), ended: Set(ended), generations: generations, issuedSinceRotation: $0.issuedSinceRotation)
        }
        keyChanges.changed()
    }

    private func tag(_ message: UInt64, _ key: (UInt64, UInt64)) -> UInt64 {
        SipHash24.hash(message, key: key)
    }
}

/// SipHash-2-4 of one 64-bit word (Aumasson & Bernstein), a keyed PRF made for short inputs.
package enum SipHash24 {
    package static func hash(_ m: UInt64, key: (UInt64, UInt64)) -> UInt64 {
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
