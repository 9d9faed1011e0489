/// DEFLATE decoding (RFC 1951) and its gzip (RFC 1952) and zlib (RFC 1950) wrappers, for bodies
/// sent with `Content-Encoding: gzip` or `deflate` that a recording or a HAR must hold decoded,
/// as WireMock's recorder and browsers' HAR files hold them. Ours (no zlib is linked): one pass
/// over the input, each symbol decoded in at most 15 steps, the output bounded by `limit`, so no
/// input can make it run long or hold much.
package enum Inflate {
    /// Why a body could not be decoded.
    package struct Failure: Error, Equatable, Sendable {
        package let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The decoded body of a `Content-Encoding` the server can decode (`gzip`, `x-gzip`,
    /// `deflate`), nil for any other coding (`br`, `identity`, a list of codings). `partial`: the
    /// body was cut (the journal keeps its start), so decode what is there and stop at its end.
    /// `cut`: stop at `limit` bytes of output instead of failing (what is shown of a body).
    package static func decode(_ body: [UInt8], contentEncoding: String, limit: Int, partial: Bool = false, cut: Bool = false) throws(Failure) -> [UInt8]? {
        switch contentEncoding.lowercased().trimmingASCIISpaces() {
        case "gzip", "x-gzip": return try gunzip(body, limit: limit, partial: partial, cut: cut)
        case "deflate": return try deflate(body, limit: limit, partial: partial, cut: cut)
        default: return nil
        }
    }

    /// One or more gzip members, their contents joined; each member's CRC-32 and length are checked.
    package static func gunzip(_ data: [UInt8], limit: Int, partial: Bool = false, cut: Bool = false) throws(Failure) -> [UInt8] {
        var out = Output(limit: limit, cut: cut)
        var at = 0
        repeat {
            at = try skipGzipHeader(data, from: at)
            let start = out.bytes.count
            var bits = BitReader(data, at: at, partial: partial)
            let complete = try inflate(&bits, into: &out)
            guard complete else { return out.bytes }
            at = bits.byteAlignedPosition
            guard at + 8 <= data.count else {
                if partial { return out.bytes }
                throw Failure("the gzip trailer is missing")
            }
            let crc = UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 3]) << 24
            let size = UInt32(data[at + 4]) | UInt32(data[at + 5]) << 8 | UInt32(data[at + 6]) << 16 | UInt32(data[at + 7]) << 24
            guard CRC32.of(out.bytes[start...]) == crc else { throw Failure("the gzip checksum does not match") }
            guard UInt32(truncatingIfNeeded: out.bytes.count - start) == size else { throw Failure("the gzip length does not match") }
            at += 8
            // Another member follows only if it starts with the magic; trailing padding is ignored, as gzip does.
        } while at + 2 <= data.count && data[at] == 0x1F && data[at + 1] == 0x8B
        return out.bytes
    }

    /// `deflate` as HTTP means it: a zlib stream (RFC 1950), or, as some servers send, raw DEFLATE.
    package static func deflate(_ data: [UInt8], limit: Int, partial: Bool = false, cut: Bool = false) throws(Failure) -> [UInt8] {
        var out = Output(limit: limit, cut: cut)
        let zlib = data.count >= 2 && data[0] & 0x0F == 8 && data[0] >> 4 <= 7 && (UInt16(data[0]) << 8 | UInt16(data[1])) % 31 == 0
        if zlib && data[1] & 0x20 != 0 { throw Failure("the zlib stream needs a preset dictionary") }
        var bits = BitReader(data, at: zlib ? 2 : 0, partial: partial)
        _ = try inflate(&bits, into: &out)
        return out.bytes
    }

    /// The offset of the DEFLATE data after the gzip header at `at`.
    private static func skipGzipHeader(_ data: [UInt8], from start: Int) throws(Failure) -> Int {
        guard data.count >= start + 10, data[start] == 0x1F, data[start + 1] == 0x8B else { throw Failure("not gzip data (no magic number)") }
        guard data[start + 2] == 8 else { throw Failure("gzip compression method \(data[start + 2]) is not DEFLATE") }
        let flags = data[start + 3]
        var at = start + 10
        if flags & 0x04 != 0 {  // FEXTRA
            guard at + 2 <= data.count else { throw Failure("the gzip header is cut") }
            at += 2 + (Int(data[at]) | Int(data[at + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while at < data.count && data[at] != 0 { at += 1 }
            at += 1
        }
        if flags & 0x02 != 0 { at += 2 }  // FHCRC
        guard at <= data.count else { throw Failure("the gzip header is cut") }
        return at
    }

    /// The bytes decoded so far, at most `limit` of them.
    private struct Output {
        var bytes: [UInt8] = []
        let limit: Int
        /// At the limit, stop (the output is cut) rather than fail.
        let cut: Bool

        /// Room for `n` more bytes: true; at the limit with `cut`, false (the bytes that fit are
        /// for the caller to add); without `cut`, the failure.
        func room(_ n: Int) throws(Failure) -> Bool {
            guard bytes.count + n > limit else { return true }
            if cut { return false }
            throw Failure("the decoded body is larger than \(limit) bytes")
        }
    }

    /// Decodes blocks until the last one; false when the input or the room ended first.
    private static func inflate(_ bits: inout BitReader, into out: inout Output) throws(Failure) -> Bool {
        var last = false
        while !last {
            guard let header = try bits.take(3) else { return false }
            last = header & 1 == 1
            switch header >> 1 {
            case 0:
                guard try stored(&bits, into: &out) else { return false }
            case 1:
                guard try codes(&bits, into: &out, Huffman.fixedLengths, Huffman.fixedDistances) else { return false }
            case 2:
                guard let (lengths, distances) = try dynamicTables(&bits) else { return false }
                guard try codes(&bits, into: &out, lengths, distances) else { return false }
            default:
                throw Failure("invalid DEFLATE block type")
            }
        }
        return true
    }

    private static func stored(_ bits: inout BitReader, into out: inout Output) throws(Failure) -> Bool {
        bits.alignToByte()
        guard let len = try bits.take(16), let nlen = try bits.take(16) else { return false }
        guard len == ~nlen & 0xFFFF else { throw Failure("a stored DEFLATE block's length does not match its complement") }
        let fits = try out.room(len)
        guard let bytes = try bits.bytes(len) else { return false }
        out.bytes.append(contentsOf: bytes.prefix(out.limit - out.bytes.count))
        return fits
    }

    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                              4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// One block's literals and back-references, up to its end-of-block symbol.
    private static func codes(_ bits: inout BitReader, into out: inout Output, _ lengths: Huffman, _ distances: Huffman) throws(Failure) -> Bool {
        while true {
            guard let symbol = try lengths.decode(&bits) else { return false }
            if symbol < 256 {
                guard try out.room(1) else { return false }
                out.bytes.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return true }
            let index = symbol - 257
            guard index < lengthBase.count else { throw Failure("invalid DEFLATE length code") }
            guard let extra = try bits.take(lengthExtra[index]) else { return false }
            let length = lengthBase[index] + extra
            guard let code = try distances.decode(&bits) else { return false }
            guard code < distanceBase.count else { throw Failure("invalid DEFLATE distance code") }
            guard let more = try bits.take(distanceExtra[code]) else { return false }
            let distance = distanceBase[code] + more
            guard distance <= out.bytes.count else { throw Failure("a DEFLATE distance reaches before the start") }
            let fits = try out.room(length)
            // Byte by byte: a copy may overlap what it writes (distance < length repeats a run).
            var from = out.bytes.count - distance
            for _ in 0..<min(length, out.limit - out.bytes.count) {
                out.bytes.append(out.bytes[from])
                from += 1
            }
            guard fits else { return false }
        }
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A dynamic block's two codes, read from its header.
    private static func dynamicTables(_ bits: inout BitReader) throws(Failure) -> (Huffman, Huffman)? {
        guard let hlit = try bits.take(5), let hdist = try bits.take(5), let hclen = try bits.take(4) else { return nil }
        let literalCount = hlit + 257, distanceCount = hdist + 1
        guard literalCount <= 286, distanceCount <= 30 else { throw Failure("a DEFLATE block declares too many codes") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<(hclen + 4) {
            guard let length = try bits.take(3) else { return nil }
            codeLengths[codeLengthOrder[i]] = length
        }
        let lengthCode = try Huffman(codeLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            guard let symbol = try lengthCode.decode(&bits) else { return nil }
            var repeated = 0, value = 0
            switch symbol {
            case 0...15:
                lengths.append(symbol)
                continue
            case 16:
                guard let last = lengths.last else { throw Failure("a DEFLATE length repeat has nothing to repeat") }
                guard let n = try bits.take(2) else { return nil }
                (repeated, value) = (3 + n, last)
            case 17:
                guard let n = try bits.take(3) else { return nil }
                repeated = 3 + n
            default:
                guard let n = try bits.take(7) else { return nil }
                repeated = 11 + n
            }
            guard lengths.count + repeated <= literalCount + distanceCount else { throw Failure("DEFLATE code lengths overflow the block's codes") }
            lengths.append(contentsOf: repeatElement(value, count: repeated))
        }
        guard lengths[256] != 0 else { throw Failure("a DEFLATE block has no end-of-block code") }
        return (try Huffman(Array(lengths[..<literalCount])), try Huffman(Array(lengths[literalCount...])))
    }
}

/// A canonical Huffman code (RFC 1951 §3.2.2) as counts per length and symbols in code order,
/// decoded a bit at a time (as zlib's `puff.c`): at most 15 steps per symbol.
private struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]

    init(_ lengths: [Int]) throws(Inflate.Failure) {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw Inflate.Failure("a DEFLATE code is over-subscribed") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    /// The next symbol; nil when the input ended (only with `partial`).
    func decode(_ bits: inout BitReader) throws(Inflate.Failure) -> Int? {
        var code = 0, first = 0, index = 0
        for length in 1...15 {
            guard let bit = try bits.take(1) else { return nil }
            code |= bit
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw Inflate.Failure("an invalid DEFLATE code")
    }

    static let fixedLengths: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        return (try? Huffman(lengths)) ?? Huffman(empty: ())
    }()

    static let fixedDistances: Huffman = (try? Huffman([Int](repeating: 5, count: 30))) ?? Huffman(empty: ())

    /// A code with no symbols (never used: the fixed codes are valid).
    private init(empty: Void) { symbols = [] }
}

/// Bits of the input, least significant first (RFC 1951 §3.1.1).
private struct BitReader {
    let data: [UInt8]
    var at: Int
    var buffer = 0
    var count = 0
    /// The input may end anywhere: running out is the end, not an error.
    let partial: Bool

    init(_ data: [UInt8], at: Int, partial: Bool) {
        self.data = data
        self.at = at
        self.partial = partial
    }

    /// `n` bits (at most 16) as a number; nil when the input ended (with `partial`).
    mutating func take(_ n: Int) throws(Inflate.Failure) -> Int? {
        while count < n {
            guard at < data.count else {
                if partial { return nil }
                throw Inflate.Failure("the compressed data ends early")
            }
            buffer |= Int(data[at]) << count
            at += 1
            count += 8
        }
        let value = buffer & (1 << n - 1)
        buffer >>= n
        count -= n
        return value
    }

    mutating func alignToByte() {
        buffer = 0
        count = 0
    }

    /// The next `n` whole bytes (after `alignToByte`).
    mutating func bytes(_ n: Int) throws(Inflate.Failure) -> ArraySlice<UInt8>? {
        guard at + n <= data.count else {
            if partial {
                defer { at = data.count }
                return data[at...]
            }
            throw Inflate.Failure("the compressed data ends early")
        }
        defer { at += n }
        return data[at..<(at + n)]
    }

    /// Where the next whole byte starts (the bits left in the buffer belong to a byte already read).
    var byteAlignedPosition: Int { at - count / 8 }
}

/// CRC-32 as gzip computes it (the reflected polynomial 0xEDB88320).
private enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func of(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
