/// The text being matched: its UTF-8 bytes, read one Unicode scalar at a time. Positions are
/// byte offsets, so a match's ranges map straight back to `String.Index`es.
struct UTF8Text {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    /// The scalar at `position` and its length in bytes; nil at the end. Swift strings hold
    /// valid UTF-8, so the lead byte tells the length.
    @inline(__always)
    func scalar(at position: Int) -> (value: UInt32, length: Int)? {
        guard position < bytes.count else { return nil }
        let b0 = UInt32(bytes[position])
        if b0 < 0x80 { return (b0, 1) }
        let remaining = bytes.count - position
        if b0 < 0xE0, remaining >= 2 {
            return ((b0 & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F), 2)
        }
        if b0 < 0xF0, remaining >= 3 {
            return ((b0 & 0x0F) << 12 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F), 3)
        }
        if remaining >= 4 {
            return ((b0 & 0x07) << 18 | UInt32(bytes[position + 1] & 0x3F) << 12
                    | UInt32(bytes[position + 2] & 0x3F) << 6 | UInt32(bytes[position + 3] & 0x3F), 4)
        }
        // A truncated sequence (not from a String): one replacement scalar per byte.
        return (0xFFFD, 1)
    }

    /// Runs `body` over the string's UTF-8, copying only when the string is not contiguous.
    static func with<R>(_ string: String, _ body: (UTF8Text) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable({ body(UTF8Text(bytes: $0)) }) { return result }
        let copy = Array(string.utf8)
        return copy.withUnsafeBufferPointer { body(UTF8Text(bytes: $0)) }
    }
}
