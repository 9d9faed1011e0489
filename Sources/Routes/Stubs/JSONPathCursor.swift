/// A position in a JSONPath's text, with the look-ahead helpers Jayway's `CharacterIndex` has,
/// so the path and filter compilers read a path exactly where Jayway's stop. `end` is the index
/// of the last character still read (Jayway trims by moving it).
struct JSONPathCursor {
    let text: [Unicode.Scalar]
    var position = 0
    var end: Int

    init(_ string: String) {
        text = Array(string.unicodeScalars)
        end = text.count - 1
    }

    init(_ scalars: ArraySlice<Unicode.Scalar>) {
        text = Array(scalars)
        end = text.count - 1
    }

    func inBounds(_ i: Int) -> Bool { i >= 0 && i <= end }
    var inBounds: Bool { inBounds(position) }
    var isTail: Bool { position >= end }
    /// The character at `i`, or a NUL past the text (Jayway would throw there; callers check).
    func at(_ i: Int) -> Unicode.Scalar { i >= 0 && i < text.count ? text[i] : "\0" }
    var current: Unicode.Scalar { at(position) }
    func currentIs(_ c: Unicode.Scalar) -> Bool { position < text.count && text[position] == c }
    func nextIs(_ c: Unicode.Scalar) -> Bool { inBounds(position + 1) && text[position + 1] == c }
    var lastIsPeriod: Bool { end >= 0 && text[end] == "." }

    func string(_ from: Int, _ to: Int) -> String {
        let lo = max(0, min(from, text.count)), hi = max(lo, min(to, text.count))
        var s = String.UnicodeScalarView()
        s.append(contentsOf: text[lo..<hi])
        return String(s)
    }

    mutating func skipBlanks() {
        while inBounds && position < end && text[position] == " " { position += 1 }
    }

    mutating func trim() {
        skipBlanks()
        while inBounds && position < end && text[end] == " " { end -= 1 }
    }

    func nextSignificant(after start: Int) -> Unicode.Scalar {
        var i = start + 1
        while inBounds(i) && text[i] == " " { i += 1 }
        return inBounds(i) ? text[i] : " "
    }

    func nextSignificantIs(after start: Int, _ c: Unicode.Scalar) -> Bool {
        var i = start + 1
        while inBounds(i) && text[i] == " " { i += 1 }
        return inBounds(i) && text[i] == c
    }

    /// The index of `c` if it is the next non-space character after `start`, else -1.
    func indexOfNextSignificant(after start: Int, _ c: Unicode.Scalar) -> Int {
        var i = start + 1
        while inBounds(i) && text[i] == " " { i += 1 }
        return at(i) == c && i < text.count ? i : -1
    }

    func nextIndex(of c: Unicode.Scalar, from start: Int) -> Int {
        var i = start
        while inBounds(i) { if text[i] == c { return i }; i += 1 }
        return -1
    }

    /// The next `c` after `start` not escaped by a backslash, or -1.
    func nextUnescaped(_ c: Unicode.Scalar, after start: Int) -> Int {
        var i = start + 1, escaped = false
        while inBounds(i) {
            if escaped { escaped = false } else if text[i] == "\\" { escaped = true } else if text[i] == c { return i }
            i += 1
        }
        return -1
    }

    /// The index closing the `open` at `start`, skipping quoted strings and /regexes/ as Jayway does.
    func matchingClose(_ start: Int, _ open: Unicode.Scalar, _ close: Unicode.Scalar, skipRegex: Bool) -> Int? {
        guard at(start) == open else { return nil }
        var depth = 1, i = start + 1
        while inBounds(i) {
            if text[i] == "'" || text[i] == "\"" {
                let q = nextUnescaped(text[i], after: i)
                if q == -1 { return nil }
                i = q + 1
            }
            if skipRegex && at(i) == "/" {
                let q = nextUnescaped("/", after: i)
                if q == -1 { return nil }
                i = q + 1
            }
            if at(i) == open { depth += 1 }
            if at(i) == close {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }

    func previousSignificantIndex(before start: Int) -> Int {
        var i = start - 1
        while inBounds(i) && text[i] == " " { i -= 1 }
        return inBounds(i) ? i : -1
    }

    /// Reads `s` after blanks and moves past it; false (position after the blanks) if it is not there.
    mutating func take(_ s: String) -> Bool {
        skipBlanks()
        let scalars = Array(s.unicodeScalars)
        guard inBounds(position + scalars.count - 1) else { return false }
        for (k, c) in scalars.enumerated() where text[position + k] != c { return false }
        position += scalars.count
        return true
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
