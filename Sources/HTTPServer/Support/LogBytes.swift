/// Bytes of log lines, appended through a pointer: a field is one capacity check and one copy,
/// where `[UInt8]`'s appends (a uniqueness check, growth, a generic call each) cost several times
/// the copy. One owner at a time (the queue under its lock, the writer thread, a caller formatting
/// a line for a sink), which frees it with `free()`; a copy shares the memory, so none is made.
struct LogBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// Gives the memory back; the value must not be used afterwards.
    func free() { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The bytes written so far.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Empties it, keeping the memory.
    mutating func removeAll() { count = 0 }

    /// Room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if extra > capacity &- count { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var size = capacity
        while size < needed { size *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = size
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        (base + count).update(from: source, count: n)
        count &+= n
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress { append(source, count: bytes.count) }
    }

    /// A literal's bytes, copied from its static storage.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// A string's UTF-8, as it is (escaping is the caller's business).
    mutating func append(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
        if done == nil { for byte in text.utf8 { append(byte) } }
    }

    /// The `count` bytes `body` writes at the end (it is given room for exactly that many).
    @inline(__always)
    mutating func append(count n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(n)
        body(base + count)
        count &+= n
    }
}
