/// Ordered header fields with case-insensitive name lookup (RFC 9110 §5.1).
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Field = (name: String, value: String)
    package private(set) var fields: [Field]

    package init() { fields = [] }
    package init(_ fields: [Field]) { self.fields = fields }
    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    package var count: Int { fields.count }
    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of the named field, or nil.
    package subscript(name: String) -> String? {
        let n = name.utf8.count
        for field in fields where HTTPHeaders.named(field, name, n) { return field.value }
        return nil
    }

    /// Every value of the named field, in order.
    package func values(_ name: String) -> [String] {
        let n = name.utf8.count
        return fields.compactMap { HTTPHeaders.named($0, name, n) ? $0.value : nil }
    }

    package func contains(_ name: String) -> Bool { self[name] != nil }

    package mutating func reserveCapacity(_ n: Int) { fields.reserveCapacity(n) }

    package mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of that name with one field, or adds it.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    package mutating func remove(_ name: String) {
        let n = name.utf8.count
        fields.removeAll { HTTPHeaders.named($0, name, n) }
    }

    /// Whether `field` is named `name` (`count` its UTF-8 length), any case. The lengths are
    /// compared here, inline, before the comparison's call: most fields a lookup passes differ in
    /// length, and the call alone cost more than the comparison (callgrind: ~40 instructions a
    /// field, nine fields a request on the lookups every request makes).
    @inline(__always)
    private static func named(_ field: Field, _ name: String, _ count: Int) -> Bool {
        field.name.utf8.count == count && field.name.equalsIgnoringASCIICase(name)
    }

    /// True when a comma-separated field (such as `Connection`) lists the token, any case.
    package func hasToken(_ token: String, in name: String) -> Bool {
        // Walks the fields directly: asked on every request (Connection, Upgrade), so no arrays.
        let n = name.utf8.count
        for field in fields where HTTPHeaders.named(field, name, n) {
            for part in field.value.split(separator: ",") {
                if part.trimmingASCIISpaces().equalsIgnoringASCIICase(token) { return true }
            }
        }
        return false
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality without allocating lowercased copies.
    @inlinable
    package func equalsIgnoringASCIICase<S: StringProtocol>(_ other: S) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        // On contiguous bytes (native strings, small ones included): walking two UTF8Views index
        // by index cost several times more per byte.
        let fast = a.withContiguousStorageIfAvailable { pa in
            b.withContiguousStorageIfAvailable { pb in asciiCaseEqual(pa, pb) }
        }
        if let fast, let result = fast { return result }
        var i = b.startIndex
        for x in a {
            let y = b[i]
            if x != y && asciiLower(x) != asciiLower(y) { return false }
            i = b.index(after: i)
        }
        return true
    }

    /// The text without leading and trailing spaces and tabs.
    package func trimmingASCIISpaces() -> Substring {
        let s = Substring(self)
        var start = s.startIndex, end = s.endIndex
        while start < end, s[start] == " " || s[start] == "\t" { start = s.index(after: start) }
        while end > start {
            let prev = s.index(before: end)
            guard s[prev] == " " || s[prev] == "\t" else { break }
            end = prev
        }
        return s[start..<end]
    }
}

/// The byte lowercased if it is an ASCII capital.
@inlinable
func asciiLower(_ b: UInt8) -> UInt8 { b &- 65 < 26 ? b | 0x20 : b }

/// Byte-wise ASCII case-insensitive equality of two buffers of equal length.
@inlinable
func asciiCaseEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for k in 0..<a.count {
        let x = a[k], y = b[k]
        if x != y && asciiLower(x) != asciiLower(y) { return false }
    }
    return true
}
