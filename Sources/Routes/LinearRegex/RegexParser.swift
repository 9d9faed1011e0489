/// Reads the Java-like syntax WireMock mappings use into a `RegexNode`, refusing by name what
/// needs backtracking (backreferences, lookaround, possessive quantifiers, atomic groups).
struct RegexParser {
    /// Groups nested deeper are refused: the parser and compiler recurse once per level.
    static let maxDepth = 100
    /// `{n,m}` counts above this are refused (the program would be too big anyway).
    static let maxRepeat = 1000

    private let scalars: [Unicode.Scalar]
    private var i = 0
    private var flags = RegexFlags()
    private var depth = 0
    private(set) var groupCount = 0
    private(set) var names: [String: Int] = [:]

    /// `dotAll`: `.` matches line terminators from the start, as Java's `Pattern.DOTALL` (`(?s)`).
    init(_ pattern: String, dotAll: Bool = false) {
        scalars = Array(pattern.unicodeScalars)
        flags.dotAll = dotAll
    }

    /// The whole pattern.
    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        let node = try parseAlternation()
        if i < scalars.count { throw RegexSyntaxError(message: "unmatched )", offset: i) }
        return node
    }

    // MARK: - Structure

    private var atEnd: Bool { i >= scalars.count }
    private func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < scalars.count ? scalars[i + k] : nil }

    private mutating func parseAlternation() throws(RegexSyntaxError) -> RegexNode {
        var branches = [try parseConcat()]
        while peek() == "|" {
            i += 1
            branches.append(try parseConcat())
        }
        return branches.count == 1 ? branches[0] : .alternate(branches)
    }

    private mutating func parseConcat() throws(RegexSyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while true {
            skipExtendedSpace()
            guard let c = peek(), c != "|", c != ")" else { break }
            guard let atom = try parseAtom() else { continue }
            items.append(try parseQuantifiers(on: atom))
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .concat(items)
    }

    private mutating func skipExtendedSpace() {
        guard flags.extended else { return }
        while let c = peek() {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" {
                i += 1
            } else if c == "#" {
                while let d = peek(), d != "\n" { i += 1 }
            } else {
                return
            }
        }
    }

    /// One atom; nil for a construct that matches nothing by itself (a flag group such as `(?i)`).
    private mutating func parseAtom() throws(RegexSyntaxError) -> RegexNode? {
        guard let c = peek() else { return nil }
        let start = i
        i += 1
        switch c {
        case "(": return try parseGroup(at: start)
        case "[":
            let set = try parseClass(at: start)
            return .set(set)
        case ".": return .set(flags.dotAll ? .all : .notLineTerminator)
        case "^": return .assertion(flags.multiline ? .lineStart : .textStart)
        case "$": return .assertion(flags.multiline ? .lineEnd : .textEnd)
        case "\\": return try parseEscape(at: start)
        case "*", "+", "?": throw RegexParser.nothingToRepeat(c, at: start)
        case "{" where quantifierBounds(from: start) != nil: throw RegexParser.nothingToRepeat(c, at: start)
        default: return literal(c.value)
        }
    }

    private func literal(_ value: UInt32) -> RegexNode {
        let set = ScalarSet(scalar: value)
        return .set(flags.caseInsensitive ? set.caseFolded() : set)
    }

    /// How a group opens; read apart from `parseGroup` so the frame that recurses once per
    /// nesting level stays small (Darwin's secondary threads have 512 KiB stacks).
    private enum GroupOpening {
        case capture(index: Int, name: String?)
        case plain
        /// `(?i)`: flags for the rest of the enclosing group, no body.
        case flagsOnly
    }

    private mutating func parseGroup(at start: Int) throws(RegexSyntaxError) -> RegexNode? {
        depth += 1
        defer { depth -= 1 }
        if depth > RegexParser.maxDepth { throw RegexParser.nestedTooDeep("groups", at: start) }
        let outer = flags
        let opening = try parseGroupOpening(at: start)
        if case .flagsOnly = opening { return nil }
        let body = try parseAlternation()
        guard peek() == ")" else { throw RegexParser.missingParenthesis(at: start) }
        i += 1
        // Flags set inside a group end with it (Java's scoping).
        flags = outer
        if case .capture(let index, let name) = opening { return .capture(body, index: index, name: name) }
        return body
    }

    @inline(never)
    private mutating func parseGroupOpening(at start: Int) throws(RegexSyntaxError) -> GroupOpening {
        guard peek() == "?" else {
            groupCount += 1
            return .capture(index: groupCount, name: nil)
        }
        i += 1
        switch peek() {
        case ":":
            i += 1
            return .plain
        case "=": throw .needsBacktracking("lookahead assertions (?=…)", at: start)
        case "!": throw .needsBacktracking("negative lookahead assertions (?!…)", at: start)
        case ">": throw .needsBacktracking("atomic groups (?>…)", at: start)
        case "<":
            if peek(1) == "=" { throw .needsBacktracking("lookbehind assertions (?<=…)", at: start) }
            if peek(1) == "!" { throw .needsBacktracking("negative lookbehind assertions (?<!…)", at: start) }
            i += 1
            let name = try parseGroupName(at: start)
            if names[name] != nil { throw RegexSyntaxError(message: "the group name \(name) is used twice", offset: start) }
            groupCount += 1
            names[name] = groupCount
            return .capture(index: groupCount, name: name)
        default:
            // Flags: `(?i)` for the rest of the enclosing group, `(?i:…)` for this one.
            var on = true
            while let f = peek(), f != ")", f != ":" {
                i += 1
                if f == "-" && on { on = false; continue }
                if !flags.set(f, on) { throw RegexSyntaxError(message: "unknown group or flag (?\(f)", offset: start) }
            }
            guard let end = peek() else { throw RegexParser.missingParenthesis(at: start) }
            i += 1
            return end == ")" ? .flagsOnly : .plain
        }
    }

    // Errors built out of line: an interpolated message built inside a recursive function
    // would widen its frame for every level.
    @inline(never)
    private static func nothingToRepeat(_ c: Unicode.Scalar, at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: "\(c) has nothing to repeat", offset: offset)
    }

    @inline(never)
    private static func nestedTooDeep(_ what: String, at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: "\(what) nested deeper than \(maxDepth)", offset: offset, isRefusedConstruct: true)
    }

    @inline(never)
    private static func missingParenthesis(at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: "missing )", offset: offset)
    }

    private mutating func parseGroupName(at start: Int) throws(RegexSyntaxError) -> String {
        var name = ""
        while let c = peek(), c != ">" {
            let letter = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
            guard letter || (!name.isEmpty && c >= "0" && c <= "9") else {
                throw RegexSyntaxError(message: "a group name is letters then digits: (?<name>…)", offset: start)
            }
            name.unicodeScalars.append(c)
            i += 1
        }
        guard peek() == ">", !name.isEmpty else { throw RegexSyntaxError(message: "a group name is letters then digits: (?<name>…)", offset: start) }
        i += 1
        return name
    }

    // MARK: - Quantifiers

    private mutating func parseQuantifiers(on atom: RegexNode) throws(RegexSyntaxError) -> RegexNode {
        skipExtendedSpace()
        guard let c = peek() else { return atom }
        let start = i
        var bounds: (min: Int, max: Int?)
        switch c {
        case "*": bounds = (0, nil); i += 1
        case "+": bounds = (1, nil); i += 1
        case "?": bounds = (0, 1); i += 1
        case "{":
            // Not a valid `{n}`, `{n,}`, `{n,m}`: a literal brace, as in `/users/{id}`.
            guard let b = quantifierBounds(from: i) else { return atom }
            bounds = (b.min, b.max)
            i = b.end
        default: return atom
        }
        if let max = bounds.max, max < bounds.min { throw RegexSyntaxError(message: "{\(bounds.min),\(max)}: the maximum is below the minimum", offset: start) }
        if bounds.min > RegexParser.maxRepeat || (bounds.max ?? 0) > RegexParser.maxRepeat {
            throw RegexSyntaxError(message: "repetition counts above \(RegexParser.maxRepeat) are refused", offset: start)
        }
        var lazy = false
        if peek() == "?" { lazy = true; i += 1 } else if peek() == "+" {
            throw .needsBacktracking("possessive quantifiers (a*+)", at: start)
        }
        if let next = peek(), next == "*" || next == "+" || next == "?" || (next == "{" && quantifierBounds(from: i) != nil) {
            throw RegexSyntaxError(message: "a quantifier follows another: put the first in a group", offset: i)
        }
        return .repeat_(atom, min: bounds.min, max: bounds.max, lazy: lazy)
    }

    /// `{n}`, `{n,}` or `{n,m}` starting at `start`: the bounds and the index after `}`.
    private func quantifierBounds(from start: Int) -> (min: Int, max: Int?, end: Int)? {
        var k = start + 1
        func number() -> Int? {
            var value: Int? = nil
            while k < scalars.count, scalars[k].value >= 0x30, scalars[k].value <= 0x39 {
                value = min((value ?? 0) * 10 + Int(scalars[k].value - 0x30), 1_000_000)
                k += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        if k < scalars.count && scalars[k] == "}" { return (low, low, k + 1) }
        guard k < scalars.count && scalars[k] == "," else { return nil }
        k += 1
        let high = number()
        guard k < scalars.count && scalars[k] == "}" else { return nil }
        return (low, high, k + 1)
    }

    // MARK: - Escapes

    private mutating func parseEscape(at start: Int) throws(RegexSyntaxError) -> RegexNode? {
        guard let c = peek() else { throw RegexSyntaxError(message: "the pattern ends in \\", offset: start) }
        switch c {
        case "b": i += 1; return .assertion(.wordBoundary)
        case "B": i += 1; return .assertion(.notWordBoundary)
        case "A": i += 1; return .assertion(.textStart)
        case "z", "Z": i += 1; return .assertion(.textEnd)
        case "G": throw RegexSyntaxError(message: "\\G (the end of the previous match) is not supported", offset: start)
        case "1"..."9": throw .needsBacktracking("backreferences (\\\(c))", at: start)
        case "k": throw .needsBacktracking("backreferences (\\k<name>)", at: start)
        case "Q":
            i += 1
            var items: [RegexNode] = []
            while let d = peek() {
                if d == "\\" && peek(1) == "E" { i += 2; break }
                items.append(literal(d.value))
                i += 1
            }
            return items.isEmpty ? nil : items.count == 1 ? items[0] : .concat(items)
        case "E": i += 1; return nil
        default:
            let set = try parseEscapedSet(at: start)
            return .set(flags.caseInsensitive ? set.caseFolded() : set)
        }
    }

    /// An escape that stands for scalars (`\d`, `\x41`, `\.`), after the backslash; in or out of a class.
    private mutating func parseEscapedSet(at start: Int) throws(RegexSyntaxError) -> ScalarSet {
        guard let c = peek() else { throw RegexSyntaxError(message: "the pattern ends in \\", offset: start) }
        i += 1
        switch c {
        case "d": return .digit
        case "D": return ScalarSet.digit.inverted()
        case "w": return .word
        case "W": return ScalarSet.word.inverted()
        case "s": return .space
        case "S": return ScalarSet.space.inverted()
        case "t": return ScalarSet(scalar: 0x09)
        case "n": return ScalarSet(scalar: 0x0A)
        case "r": return ScalarSet(scalar: 0x0D)
        case "f": return ScalarSet(scalar: 0x0C)
        case "a": return ScalarSet(scalar: 0x07)
        case "e": return ScalarSet(scalar: 0x1B)
        case "0":
            // Java's octal: \0n, \0nn, \0mnn (m ≤ 3).
            var value: UInt32 = 0, digits = 0
            while digits < 3, let d = peek(), d >= "0", d <= "7" {
                let next = value * 8 + (d.value - 0x30)
                if next > 0xFF { break }
                value = next; digits += 1; i += 1
            }
            if digits == 0 { throw RegexSyntaxError(message: "\\0 needs octal digits", offset: start) }
            return ScalarSet(scalar: value)
        case "x":
            if peek() == "{" {
                i += 1
                let value = try hexDigits(max: 6, at: start)
                guard peek() == "}" else { throw RegexSyntaxError(message: "\\x{…} needs a closing }", offset: start) }
                i += 1
                return try scalarSet(value, at: start)
            }
            return try scalarSet(try hexDigits(exactly: 2, at: start), at: start)
        case "u": return try scalarSet(try hexDigits(exactly: 4, at: start), at: start)
        case "c":
            guard let d = peek(), d.value < 0x80 else { throw RegexSyntaxError(message: "\\c needs an ASCII letter", offset: start) }
            i += 1
            return ScalarSet(scalar: d.value ^ 0x40)
        case "p", "P":
            var name = ""
            if peek() == "{" {
                i += 1
                while let d = peek(), d != "}" { name.unicodeScalars.append(d); i += 1 }
                guard peek() == "}" else { throw RegexSyntaxError(message: "\\p{…} needs a closing }", offset: start) }
                i += 1
            } else if let d = peek() {
                name.unicodeScalars.append(d); i += 1
            }
            let key = name.hasPrefix("Is") ? String(name.dropFirst(2)) : name
            guard let set = ScalarSet.posix[key] else {
                throw RegexSyntaxError(message: "the character property \\p{\(name)} is not supported (POSIX names such as \\p{Alpha}, \\p{Digit}, \\p{Punct} are): use a class such as [a-z]", offset: start)
            }
            return c == "P" ? set.inverted() : set
        default:
            let isLetter = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
            let isDigit = c >= "0" && c <= "9"
            if isLetter || isDigit { throw RegexSyntaxError(message: "unknown escape \\\(c)", offset: start) }
            // Any other escaped scalar stands for itself (`\.`, `\/`, `\\`, `\{`).
            return ScalarSet(scalar: c.value)
        }
    }

    private func scalarSet(_ value: UInt32, at start: Int) throws(RegexSyntaxError) -> ScalarSet {
        guard value <= ScalarSet.maxScalar else { throw RegexSyntaxError(message: "the code point \(value) is beyond Unicode", offset: start) }
        return ScalarSet(scalar: value)
    }

    private mutating func hexDigits(exactly count: Int, at start: Int) throws(RegexSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let d = peek(), let v = RegexParser.hexValue(d) else {
                throw RegexSyntaxError(message: "expected \(count) hexadecimal digits", offset: start)
            }
            value = value * 16 + v
            i += 1
        }
        return value
    }

    private mutating func hexDigits(max count: Int, at start: Int) throws(RegexSyntaxError) -> UInt32 {
        var value: UInt32 = 0, read = 0
        while read < count, let d = peek(), let v = RegexParser.hexValue(d) {
            value = value * 16 + v
            i += 1; read += 1
        }
        if read == 0 { throw RegexSyntaxError(message: "expected hexadecimal digits", offset: start) }
        return value
    }

    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }

    // MARK: - Classes

    /// `[…]` after its `[`: ranges, escapes, nested classes (a union), `&&` (an intersection), `^` negation.
    private mutating func parseClass(at start: Int) throws(RegexSyntaxError) -> ScalarSet {
        depth += 1
        defer { depth -= 1 }
        if depth > RegexParser.maxDepth { throw RegexParser.nestedTooDeep("classes", at: start) }
        var negated = false
        if peek() == "^" { negated = true; i += 1 }
        var intersected: ScalarSet? = nil
        var current = ScalarSet()
        var first = true
        while true {
            guard let c = peek() else { throw RegexSyntaxError(message: "missing ] for the class", offset: start) }
            if c == "]" && !first { i += 1; break }
            first = false
            if c == "&" && peek(1) == "&" {
                i += 2
                intersected = intersected.map { $0.intersection(current) } ?? current
                current = ScalarSet()
                continue
            }
            if c == "[" {
                let nestedStart = i
                i += 1
                current = current.union(try parseClass(at: nestedStart))
                continue
            }
            let low = try classItem(at: i)
            // A range `a-z`; `-` before `]` or after a class escape is a literal.
            if peek() == "-", let after = peek(1), after != "]", after != "[", let lowValue = low.single {
                let dash = i
                i += 1
                let high = try classItem(at: i)
                guard let highValue = high.single else { throw RegexSyntaxError(message: "a range ends in a class", offset: dash) }
                guard lowValue <= highValue else { throw RegexSyntaxError(message: "the range is out of order", offset: dash) }
                current = current.union(ScalarSet([lowValue...highValue]))
            } else {
                current = current.union(low)
            }
        }
        var set = intersected.map { $0.intersection(current) } ?? current
        if flags.caseInsensitive { set = set.caseFolded() }
        return negated ? set.inverted() : set
    }

    private mutating func classItem(at start: Int) throws(RegexSyntaxError) -> ScalarSet {
        guard let c = peek() else { throw RegexSyntaxError(message: "missing ] for the class", offset: start) }
        i += 1
        if c == "\\" {
            if peek() == "Q" {
                // `\Q…\E` in a class: each quoted scalar is a member.
                i += 1
                var set = ScalarSet()
                while let d = peek() {
                    if d == "\\" && peek(1) == "E" { i += 2; break }
                    set = set.union(ScalarSet(scalar: d.value))
                    i += 1
                }
                return set
            }
            if let d = peek(), d == "b" || d == "B" || d == "A" || d == "z" || d == "Z" {
                throw RegexSyntaxError(message: "\\\(d) is not allowed in a class", offset: start)
            }
            if let d = peek(), d >= "1", d <= "9" { throw .needsBacktracking("backreferences (\\\(d))", at: start) }
            return try parseEscapedSet(at: start)
        }
        return ScalarSet(scalar: c.value)
    }
}

extension ScalarSet {
    /// The one member of a one-scalar set.
    var single: UInt32? { ranges.count == 1 && ranges[0].lowerBound == ranges[0].upperBound ? ranges[0].lowerBound : nil }
}
