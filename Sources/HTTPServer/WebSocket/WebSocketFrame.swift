/// Frame opcodes (RFC 6455 §5.2).
package enum WebSocketOpcode {
    package static let continuation: UInt8 = 0x0
    package static let text: UInt8 = 0x1
    package static let binary: UInt8 = 0x2
    package static let close: UInt8 = 0x8
    package static let ping: UInt8 = 0x9
    package static let pong: UInt8 = 0xA

    /// Control frames have the high opcode bit set (close, ping, pong and reserved 0xB–0xF).
    static func isControl(_ opcode: UInt8) -> Bool { opcode & 0x8 != 0 }

    /// Whether the opcode is defined by RFC 6455 (everything else is reserved).
    static func isKnown(_ opcode: UInt8) -> Bool {
        switch opcode {
        case continuation, text, binary, close, ping, pong: return true
        default: return false
        }
    }
}

/// A decoded frame header (RFC 6455 §5.2): everything before the payload.
package struct WebSocketFrameHeader: Sendable, Equatable {
    package var fin: Bool
    /// RSV1–RSV3 as the three bits 0b0111_0000 of the first byte, shifted down (0 when clear).
    package var rsv: UInt8
    package var opcode: UInt8
    /// The masking key, nil for unmasked frames; its first wire byte is the most significant.
    package var mask: UInt32?
    package var payloadLength: UInt64
    /// Bytes the header occupies on the wire (2–14).
    package var headerLength: Int

    /// The result of looking at the start of a buffer.
    package enum ParseResult: Sendable, Equatable {
        /// At least this many header bytes are required in total.
        case needMore(Int)
        case header(WebSocketFrameHeader)
        /// A 64-bit length with its most significant bit set (forbidden by §5.2).
        case invalidLength
    }

    /// Parses a header from the start of `bytes`; needs at most 14 bytes. Non-minimal length
    /// encodings are accepted (§5.2 requires minimal ones, but rejecting them buys nothing).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ParseResult {
        guard bytes.count >= 2 else { return .needMore(2) }
        let b0 = bytes[0], b1 = bytes[1]
        let masked = b1 & 0x80 != 0
        let shortLength = b1 & 0x7F
        let extended = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
        let total = 2 + extended + (masked ? 4 : 0)
        guard bytes.count >= total else { return .needMore(total) }
        var length = UInt64(shortLength)
        if extended > 0 {
            length = 0
            for i in 0..<extended { length = length << 8 | UInt64(bytes[2 + i]) }
            if extended == 8 && length & (1 << 63) != 0 { return .invalidLength }
        }
        var mask: UInt32?
        if masked {
            let m = 2 + extended
            mask = UInt32(bytes[m]) << 24 | UInt32(bytes[m + 1]) << 16 | UInt32(bytes[m + 2]) << 8 | UInt32(bytes[m + 3])
        }
        return .header(WebSocketFrameHeader(fin: b0 & 0x80 != 0, rsv: (b0 >> 4) & 0x7, opcode: b0 & 0x0F,
                                            mask: mask, payloadLength: length, headerLength: total))
    }

    /// Appends a frame header to `buffer` using the shortest length encoding.
    package static func encode(fin: Bool, rsv: UInt8 = 0, opcode: UInt8, payloadLength: Int,
                              mask: UInt32? = nil, into buffer: inout [UInt8]) {
        buffer.append((fin ? 0x80 : 0) | (rsv & 0x7) << 4 | opcode & 0x0F)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payloadLength < 126 {
            buffer.append(maskBit | UInt8(truncatingIfNeeded: payloadLength))
        } else if payloadLength <= 0xFFFF {
            buffer.append(maskBit | 126)
            buffer.append(UInt8(truncatingIfNeeded: payloadLength >> 8))
            buffer.append(UInt8(truncatingIfNeeded: payloadLength))
        } else {
            buffer.append(maskBit | 127)
            let length = UInt64(payloadLength)
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        if let mask {
            for i in 0..<4 { buffer.append(WebSocketMask.keyByte(mask, i)) }
        }
    }
}

/// Applies (or removes: XOR is its own inverse) a masking key in place (RFC 6455 §5.3).
package enum WebSocketMask {
    /// XORs `bytes` with the key, starting at key position `phase` (payload offset mod 4).
    package static func apply(_ key: UInt32, phase: Int, to bytes: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var i = 0
        if count >= 16 {
            // Eight bytes at a time: a word whose memory layout repeats the key from `phase`.
            var le: UInt64 = 0
            for j in 0..<8 { le |= UInt64(keyByte(key, phase + j)) << UInt64(8 * j) }
            let pattern = UInt64(littleEndian: le)
            let raw = UnsafeMutableRawPointer(base)
            while i + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                raw.storeBytes(of: word ^ pattern, toByteOffset: i, as: UInt64.self)
                i += 8
            }
        }
        while i < count {
            base[i] ^= keyByte(key, phase + i)
            i += 1
        }
    }
}

extension WebSocketMask {
    /// Byte `index` mod 4 of the key, in wire order.
    @inline(__always)
    package static func keyByte(_ key: UInt32, _ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: key >> UInt32(24 - 8 * (index & 3)))
    }
}
