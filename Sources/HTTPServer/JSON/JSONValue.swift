/// A parsed JSON value. Objects keep their members in order (lookups are linear: request
/// objects are small), which is cheaper than hashing for the hot paths that read two keys.
///
/// `@usableFromInline`: used on hot paths in other targets (the systems read messages with `parse`,
/// `string`, `isObject` and the subscript); the optimiser copies into another module only the
/// bodies it may see from there (README, "Layout").
@usableFromInline package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The member named `key` of an object (the last one, as JSONSerialization keeps), else nil.
    @usableFromInline package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // By index from the end: only the member found is copied out.
        var index = members.endIndex
        while index > members.startIndex {
            index -= 1
            if members[index].key == key { return members[index].value }
        }
        return nil
    }

    /// The text of a string value, else nil.
    @usableFromInline package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    @usableFromInline package var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    @usableFromInline package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// Parses a complete JSON text (RFC 8259), or nil. Strict: no trailing commas, comments or
    /// invalid UTF-8; nesting deeper than `maxDepth` is refused rather than overflowing the stack.
    /// Texts that spell one of `words` come back as the caller's own strings.
    @usableFromInline
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 256, words: JSONWords = .none) -> JSONValue? {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth, words: words)
        return parser.parseDocument()
    }

    /// Where a JSON text stops being valid (a byte offset), or nil when it is valid. Foundation's
    /// decoder on Linux reports no position, and a seed file's author needs one.
    package static func syntaxErrorOffset(_ bytes: [UInt8], maxDepth: Int = 256) -> Int? {
        bytes.withUnsafeBufferPointer { buf in
            var parser = JSONParser(bytes: buf, maxDepth: maxDepth, words: .none)
            return parser.parseDocument() == nil ? min(parser.i, buf.count) : nil
        }
    }

    /// Parses JSON bytes (see `parse(_:maxDepth:)` on a buffer).
    @usableFromInline
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 256, words: JSONWords = .none) -> JSONValue? {
        bytes.withUnsafeBufferPointer { parse($0, maxDepth: maxDepth, words: words) }
    }

    /// Parses JSON text (see `parse(_:maxDepth:)` on a buffer).
    @usableFromInline
    package static func parse(_ text: String, maxDepth: Int = 256, words: JSONWords = .none) -> JSONValue? {
        var text = text
        return text.withUTF8 { parse($0, maxDepth: maxDepth, words: words) }
    }
}

/// Recursive descent over a byte buffer; every failure returns nil.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    let words: JSONWords
    var i = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, words: JSONWords) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.words = words
    }

    mutating func parseDocument() -> JSONValue? {
        // A UTF-8 byte order mark is tolerated, as JSONSerialization does.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        guard let value = parseValue() else { return nil }
        skipSpace()
        return i == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func parseValue() -> JSONValue? {
        skipSpace()
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "{"): return parseObject()
        case UInt8(ascii: "["): return parseArray()
        case UInt8(ascii: "\""): return parseText().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return parseNumber()
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let n = word.utf8CodeUnitCount
        guard bytes.count - i >= n else { return nil }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return nil }
        i += n
        return value
    }

    private mutating func parseObject() -> JSONValue? {
        guard depth < maxDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        // Request objects have a handful of members: one allocation instead of growing 1, 2, 4.
        members.reserveCapacity(4)
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = parseText() else { return nil }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            guard let value = parseValue() else { return nil }
            members.append((key: key, value: value))
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            return nil
        }
    }

    private mutating func parseArray() -> JSONValue? {
        guard depth < maxDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        i += 1
        var elements: [JSONValue] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
        while true {
            guard let value = parseValue() else { return nil }
            elements.append(value)
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            return nil
        }
    }

    /// At an opening quote: a key or a string value, the caller's own string when it is one of `words`.
    private mutating func parseText() -> String? {
        let start = i + 1
        let end = plainRunEnd(from: start)
        // Escaped or non-ASCII texts (and unterminated ones) take the general path, which decodes and checks them.
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return parseString() }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        i = end + 1
        // Plain ASCII: the bytes are the string.
        return words.lookup?(text) ?? String(decoding: text, as: UTF8.self)
    }

    /// The index of the first byte from `start` that is not plain text: a quote, a backslash,
    /// a control character or non-ASCII (`bytes.count` if none). Eight bytes at a time while
    /// eight remain, then one at a time; the scan of strings was a tenth of a gateway message.
    func plainRunEnd(from start: Int) -> Int {
        var j = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
            // The top bit of each byte of x below n (n <= 0x80), and maybe of bytes after such a
            // byte (a borrow), never before it: so the lowest bit set marks the first one.
            func below(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &- n &* ones) & ~x & high }
            while bytes.count - j >= 8 {
                let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
                let stops = w & high | below(w, 0x20)                      // non-ASCII, control
                    | below(w ^ (0x22 &* ones), 1) | below(w ^ (0x5C &* ones), 1)   // " and \
                if stops != 0 { return j + stops.trailingZeroBitCount / 8 }
                j += 8
            }
        }
        while j < bytes.count {
            let b = bytes[j]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return j }
            j += 1
        }
        return j
    }

    /// At an opening quote: the decoded string, the index past its closing quote.
    private mutating func parseString() -> String? {
        i += 1
        let start = i
        // No escapes (non-ASCII, say): the bytes are the string, once validated. (`parseText`
        // takes plain ASCII before this.)
        var seen: UInt8 = 0   // every byte or-ed together: below 0x80 means plain ASCII
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<i])
                i += 1
                return seen < 0x80 ? String(decoding: slice, as: UTF8.self) : JSONParser.string(slice)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { return nil }
            seen |= b
            i += 1
        }
        guard i < bytes.count else { return nil }
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return out.withUnsafeBufferPointer(JSONParser.string)
            }
            if b < 0x20 { return nil }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { return nil }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { return nil }
                    i += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return nil
                }
                guard let u = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: String(Character(u)).utf8)
            default:
                return nil
            }
        }
        return nil
    }

    /// The bytes as a String, or nil when they are not UTF-8. (`String(validating:)` is generic
    /// and cost a quarter of a gateway message in instruction counts.)
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard UTF8Validator.isValid(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - i >= 4 else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = FormDecoding.hexValue(bytes[i]) else { return nil }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    private mutating func parseNumber() -> JSONValue? {
        let start = i
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if (49...57).contains(bytes[i]) {
            while i < bytes.count && (48...57).contains(bytes[i]) { i += 1 }
        } else {
            return nil
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            let digits = i
            while i < bytes.count && (48...57).contains(bytes[i]) { i += 1 }
            guard i > digits else { return nil }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            let digits = i
            while i < bytes.count && (48...57).contains(bytes[i]) { i += 1 }
            guard i > digits else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text) else { return nil }
        return .number(value)
    }
}
