/// Named text parameters from a query string or a form, in order; lookup ignores ASCII case.
package struct Parameters: Sendable, Sequence {
    package typealias Item = (name: String, value: String)
    package private(set) var items: [Item]

    package init(_ items: [Item] = []) { self.items = items }

    package func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
    package var isEmpty: Bool { items.isEmpty }

    /// The first value for the name (any case), or nil.
    package subscript(name: String) -> String? {
        for item in items where item.name.equalsIgnoringASCIICase(name) { return item.value }
        return nil
    }

    /// The first value found under any of the names, tried in order.
    package func first(_ names: String...) -> String? {
        for name in names { if let v = self[name] { return v } }
        return nil
    }

    package mutating func append(_ name: String, _ value: String) { items.append((name: name, value: value)) }
    package mutating func append(contentsOf other: Parameters) { items.append(contentsOf: other.items) }
}

/// The values of a matched route's `:name` segments, percent-decoded, by name. A route has one or
/// two, so a short list searched by name costs less than a dictionary, which hashes on every
/// insert and lookup.
package struct PathParameters: Sendable, ExpressibleByDictionaryLiteral, Sequence {
    package typealias Item = (name: String, value: String)
    package private(set) var items: [Item]

    package init(_ items: [Item] = []) { self.items = items }
    package init(dictionaryLiteral elements: (String, String)...) { items = elements.map { (name: $0.0, value: $0.1) } }

    package func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
    package var isEmpty: Bool { items.isEmpty }
    package var count: Int { items.count }

    /// The value of the named parameter (exact case; the last one if a pattern repeats the name), or nil.
    package subscript(name: String) -> String? {
        items.last { $0.name == name }?.value
    }
}

/// Decoding of `application/x-www-form-urlencoded` text and percent-escapes (as UTF-8).
package enum FormDecoding {
    // Specialised (here and below) for the two types every caller passes: the generic body read
    // each byte through protocol witnesses (a template's `request.path` cost 14,000 instructions).
    /// Decodes `%XX` escapes as UTF-8 and, when `plusIsSpace`, `+` as a space.
    /// Malformed escapes are kept literally; invalid UTF-8 is repaired, so this never fails.
    @_specialize(where S == String)
    @_specialize(where S == Substring)
    package static func percentDecode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String {
        guard let bytes = decodedBytes(text, plusIsSpace: plusIsSpace) else { return String(text) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Like `percentDecode`, but nil when the escapes do not spell UTF-8 (`%FF`, `%C3%28`).
    @_specialize(where S == String)
    @_specialize(where S == Substring)
    static func strictPercentDecode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String? {
        guard let bytes = decodedBytes(text, plusIsSpace: plusIsSpace) else { return String(text) }
        guard bytes.withUnsafeBufferPointer(UTF8Validator.isValid) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The decoded bytes, or nil when there is nothing to decode.
    @_specialize(where S == String)
    @_specialize(where S == Substring)
    private static func decodedBytes<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> [UInt8]? {
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return nil
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "+") && plusIsSpace {
                out.append(UInt8(ascii: " "))
            } else if c == UInt8(ascii: "%") {
                let h1 = utf8.index(after: i)
                if h1 != utf8.endIndex {
                    let h2 = utf8.index(after: h1)
                    if h2 != utf8.endIndex, let hi = hexValue(utf8[h1]), let lo = hexValue(utf8[h2]) {
                        out.append(hi << 4 | lo)
                        i = utf8.index(after: h2)
                        continue
                    }
                }
                out.append(c)
            } else {
                out.append(c)
            }
            i = utf8.index(after: i)
        }
        return out
    }

    /// Parses `a=1&b=x+y&c` into ordered parameters (`c` gets an empty value).
    package static func parseForm<S: StringProtocol>(_ text: S) -> Parameters {
        var result = Parameters()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            if let eq = pair.firstIndex(of: "=") {
                result.append(percentDecode(pair[..<eq], plusIsSpace: true),
                              percentDecode(pair[pair.index(after: eq)...], plusIsSpace: true))
            } else {
                result.append(percentDecode(pair, plusIsSpace: true), "")
            }
        }
        return result
    }

    /// `parseForm` that refuses escapes which are not UTF-8: nil then.
    static func strictParseForm<S: StringProtocol>(_ text: S) -> Parameters? {
        var result = Parameters()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let eq = pair.firstIndex(of: "=")
            guard let name = strictPercentDecode(eq.map { pair[..<$0] } ?? pair[...], plusIsSpace: true),
                  let value = strictPercentDecode(eq.map { pair[pair.index(after: $0)...] } ?? "", plusIsSpace: true)
            else { return nil }
            result.append(name, value)
        }
        return result
    }

    /// The value of one hex digit in either case, or nil.
    package static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
