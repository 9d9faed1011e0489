/// Base64 (RFC 4648 §4, standard alphabet, with padding) for the WebSocket handshake.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Maps an ASCII byte to its 6-bit value; 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()

    /// The padded encoding of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes encoded by `text`, or nil when it is not padded standard Base64
    /// (wrong length, characters outside the alphabet, misplaced `=`).
    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var i = 0
        while i < chars.count {
            let isLast = i + 4 == chars.count
            var padding = 0
            var n: UInt32 = 0
            for j in 0..<4 {
                let char = chars[i + j]
                if char == UInt8(ascii: "=") {
                    // Padding only in the last quantum, only in its last two places, only trailing.
                    guard isLast, j >= 2 else { return nil }
                    padding += 1
                    n <<= 6
                    continue
                }
                let value = values[Int(char)]
                guard value != 0xFF, padding == 0 else { return nil }
                n = n << 6 | UInt32(value)
            }
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            if padding < 2 { out.append(UInt8(truncatingIfNeeded: n >> 8)) }
            if padding < 1 { out.append(UInt8(truncatingIfNeeded: n)) }
            i += 4
        }
        return out
    }
}
