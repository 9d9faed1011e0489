/// Writes bytes into memory sized beforehand; a write that would not fit is dropped whole (the
/// caller sized the memory from the same pieces), so it can never overrun. Plain pointer
/// arithmetic: the buffer types' members showed up as calls in the profile.
struct ByteWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var position = 0
    /// Set when a write did not fit and was dropped: the caller's size sum was short.
    private(set) var dropped = false

    init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The bytes written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: position) }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        guard position < capacity else { dropped = true; return }
        base[position] = byte
        position += 1
    }

    @inline(__always)
    mutating func put(_ source: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        guard count <= capacity - position else { dropped = true; return }
        (base + position).update(from: source, count: count)
        position += count
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        put(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inline(__always)
    mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { if let source = $0.baseAddress { put(source, count: $0.count) } }
    }

    @inline(__always)
    mutating func put(_ text: String) {
        // Native strings (small ones too) are contiguous; the loop serves any other kind.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let source = bytes.baseAddress { put(source, count: bytes.count) }
        }
        if done == nil { for byte in text.utf8 { put(byte) } }
    }

    /// Whether the bytes written from `start` on hold CR, LF or NUL (a line of their own on
    /// the wire). The encoder asks once per head line, after the whole line (without its CRLF).
    @inline(__always)
    func breaksLine(from start: Int) -> Bool {
        ByteWriter.breaksLine(base + start, count: position - start)
    }

    /// Whether the bytes hold CR, LF or NUL. A word without any byte below 0x0E (the usual
    /// case: header text has no control bytes) is passed in a few instructions, the last one
    /// overlapping the one before; only a word that has one is looked at byte by byte (a tab
    /// is allowed).
    @inline(__always)
    static func breaksLine(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else { return breaksLineByteByByte(bytes, count: count) }
        let raw = UnsafeRawPointer(bytes)
        let last = count &- 8
        var i = 0
        while true {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if (x &- 0x0E0E_0E0E_0E0E_0E0E) & ~x & 0x8080_8080_8080_8080 != 0 {
                return breaksLineByteByByte(bytes + i, count: 8)
            }
            if i == last { return false }
            i = min(i &+ 8, last)
        }
    }

    @inline(__always)
    private static func breaksLineByteByByte(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        while i < count {
            let b = bytes[i]
            if b == 0x0D || b == 0x0A || b == 0 { return true }
            i &+= 1
        }
        return false
    }

    /// The value in decimal (negative values as 0).
    mutating func putDecimal(_ value: Int) {
        var n = max(value, 0)
        let count = ByteWriter.decimalCount(n)
        guard count <= capacity - position else { dropped = true; return }
        var i = position + count
        repeat {
            i -= 1
            base[i] = UInt8(truncatingIfNeeded: 48 + n % 10)
            n /= 10
        } while n > 0
        position += count
    }

    /// How many digits `putDecimal` writes for the value (negative values are written as 0).
    static func decimalCount(_ value: Int) -> Int {
        var n = max(value, 0) / 10, count = 1
        while n > 0 { n /= 10; count += 1 }
        return count
    }
}
