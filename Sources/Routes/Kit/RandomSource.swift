#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Where tokens and codes come from, so tests can make them predictable.
package protocol RandomSource: Sendable {
    /// Returns a uniformly random 64-bit value.
    func next() -> UInt64
}

extension RandomSource {
    /// A random UUID version 4 (RFC 9562), upper-case text as `UUID().uuidString` gives.
    package func uuid() -> UUID {
        let a = next(), b = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i))) }
        for i in 0..<8 { bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A lower-case UUID v4 string, the token format used by every emulated system.
    package func token() -> String { UUIDText.format(high: next(), low: next()) }

    /// A uniformly random integer in the range (no modulo bias).
    package func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        let limit = UInt64.max - UInt64.max % span
        var x = next()
        while x >= limit { x = next() }
        return range.lowerBound + Int(x % span)
    }

    /// A random string drawn from `alphabet`.
    package func string(length: Int, alphabet: String) -> String {
        let chars = Array(alphabet)
        guard !chars.isEmpty else { return "" }
        return String((0..<max(0, length)).map { _ in chars[int(in: 0...(chars.count - 1))] })
    }
}

/// Cryptographically strong randomness from the kernel, read in 4 KiB batches from
/// `/dev/urandom` so that a token costs no system call of its own.
package final class SystemRandomSource: RandomSource {
    private struct Pool {
        var words = [UInt64](repeating: 0, count: 512)
        var index = 512
    }

    private let pool = Locked(Pool())
    private let device = RandomDevice()

    package init() {}

    package func next() -> UInt64 {
        pool.withLock { p in
            if p.index == p.words.count {
                refill(&p.words)
                p.index = 0
            }
            defer { p.index += 1 }
            return p.words[p.index]
        }
    }

    private func refill(_ words: inout [UInt64]) {
        let wanted = words.count * 8
        let got = words.withUnsafeMutableBytes { device.fill($0) }
        if got < wanted {
            // No /dev/urandom (a chroot?): the standard library's generator is just as strong, only slower.
            var g = SystemRandomNumberGenerator()
            for i in 0..<words.count { words[i] = g.next() }
        }
    }
}

/// A deterministic SplitMix64 sequence (tests): the same seed gives the same tokens and codes.
package final class SeededRandomSource: RandomSource {
    private let state: Locked<UInt64>
    package init(seed: UInt64) { state = Locked(seed) }
    package func next() -> UInt64 {
        state.withLock { s in
            s &+= 0x9E37_79B9_7F4A_7C15
            var z = s
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
