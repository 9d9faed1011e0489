import HTTPServer

/// How json-smart gave up: its ParseException (`syntax`), or nesting past `JSONSmartParser.maxDepth`
/// (json-smart itself recurses until Java's stack runs out).
enum JSONSmartFailure: Error {
    case syntax
    case tooDeep
}

/// The JSON reader under Jayway's `JsonPath.parse` as WireMock 2.35.1 runs it: json-smart 2.4.8's
/// `JSONParserString` in `MODE_PERMISSIVE`, read for read. Besides JSON it takes 'single quotes',
/// unquoted keys and values (`{a: b c}`), useless commas (`[1,,2,]`), anything after the first
/// value (`{"a":1} trailing`), and text that is no JSON at all as one string (`not json`,
/// `123abc`); a quoted string that is not closed, or `{` or `[` not closed, is an error. Both the
/// `jsonPath` helper and `matchesJsonPath` read bodies with it.
struct JSONSmartParser {
    /// json-smart's end-of-input character: a 0x1A in the text ends it too.
    private static let eoi: UInt16 = 0x1A
    /// Deeper than this is refused (`tooDeep`) rather than recursing without bound (the server's
    /// threads have 2 MiB stacks; JSONValue's own parser stops at the same depth).
    static let maxDepth = 256
    /// Members an object is scanned through for a repeated key before it is indexed.
    static let indexedMembers = 16

    private let units: [UInt16]
    private var pos = -1
    private var c: UInt16 = 0
    private var depth = 0
    /// The last string read (json-smart's `xs`).
    private var xs = ""

    private init(_ text: String) { units = Array(text.utf16) }

    /// The value `text` reads as; `.null` for `null`.
    static func parse(_ text: String) throws(JSONSmartFailure) -> JSONValue {
        var parser = JSONSmartParser(text)
        parser.read()
        return try parser.readValue(stop: .none)
    }

    /// Which characters end an unquoted string (json-smart's `stopX`, `stopKey`, `stopValue`,
    /// `stopArray`); end of input always does.
    private enum Stop {
        case none, key, value, array

        func contains(_ c: UInt16) -> Bool {
            guard c < 126 else { return false }
            switch self {
            case .none: return c == JSONSmartParser.eoi
            case .key: return c == 0x3A || c == JSONSmartParser.eoi
            case .value: return c == 0x2C || c == 0x7D || c == JSONSmartParser.eoi
            case .array: return c == 0x2C || c == 0x5D || c == JSONSmartParser.eoi
            }
        }
    }

    private mutating func read() {
        pos += 1
        c = pos >= units.count ? JSONSmartParser.eoi : units[pos]
    }

    private mutating func skipSpace() {
        while !(c > 0x20 || c == JSONSmartParser.eoi) { read() }
    }

    private mutating func skipDigits() {
        while c >= 0x30 && c <= 0x39 { read() }
    }

    private mutating func skipUnquoted(_ stop: Stop) {
        while !(c == JSONSmartParser.eoi || stop.contains(c)) { read() }
    }

    private mutating func readUnquoted(_ stop: Stop) {
        let start = pos
        skipUnquoted(stop)
        xs = trimmed(start, pos)
    }

    /// `extractStringTrim`: Java's `Character.isWhitespace` off both ends, one character kept.
    private func trimmed(_ from: Int, _ to: Int) -> String {
        var start = min(max(from, 0), units.count), stop = min(max(to, 0), units.count)
        while start < stop - 1 && JSONSmartParser.isJavaWhitespace(units[start]) { start += 1 }
        while stop - 1 > start && JSONSmartParser.isJavaWhitespace(units[stop - 1]) { stop -= 1 }
        guard start < stop else { return "" }
        return String(decoding: units[start..<stop], as: UTF16.self)
    }

    private static func isJavaWhitespace(_ u: UInt16) -> Bool {
        switch u {
        case 0x09...0x0D, 0x1C...0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x2028, 0x2029, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `readFirst` and `readMain`: one value, ended by `stop` when unquoted.
    private mutating func readValue(stop: Stop) throws(JSONSmartFailure) -> JSONValue {
        while true {
            switch c {
            case 0x20, 0x0D, 0x0A, 0x09:
                read()
                continue
            case 0x3A, 0x7D, 0x5D: throw .syntax
            case 0x7B, 0x5B:
                guard depth < JSONSmartParser.maxDepth else { throw .tooDeep }
                depth += 1
                defer { depth -= 1 }
                return c == 0x7B ? try readObject() : try readArray()
            case 0x22, 0x27:
                try readString()
                return .string(xs)
            case 0x6E, 0x66, 0x74, 0x4E:
                readUnquoted(stop)
                switch xs {
                case "null": return .null
                case "true": return .bool(true)
                case "false": return .bool(false)
                // Java's Float NaN prints as "NaN"; kept as that text, not a number this model lacks.
                default: return .string(xs)
                }
            case 0x30...0x39, 0x2D:
                return try readNumber(stop)
            default:
                readUnquoted(stop)
                return .string(xs)
            }
        }
    }

    private mutating func readArray() throws(JSONSmartFailure) -> JSONValue {
        var items: [JSONValue] = []
        read()
        while true {
            switch c {
            case 0x20, 0x0D, 0x0A, 0x09, 0x2C:
                read()
            case 0x5D:
                read()
                return .array(items)
            case 0x3A, 0x7D, JSONSmartParser.eoi:
                throw .syntax
            default:
                items.append(try readValue(stop: .array))
            }
        }
    }

    private mutating func readObject() throws(JSONSmartFailure) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        // Each key's place, once the object is past a few members: a scan per key would make an
        // object of many keys quadratic.
        var places: [String: Int] = [:]
        while true {
            read()
            switch c {
            case 0x20, 0x0D, 0x09, 0x0A, 0x2C:
                continue
            case 0x3A, 0x5D, 0x5B, 0x7B:
                throw .syntax
            case 0x7D:
                read()
                return .object(members)
            default:
                if c == 0x22 || c == 0x27 { try readString() } else { readUnquoted(.key) }
                let key = xs
                skipSpace()
                guard c == 0x3A else { throw .syntax }
                read()
                if pos >= units.count { throw .syntax }
                let value = try readValue(stop: .value)
                // A LinkedHashMap: a repeated key keeps its first place and takes the last value.
                if members.count == JSONSmartParser.indexedMembers && places.isEmpty {
                    for (i, member) in members.enumerated() where places[member.key] == nil { places[member.key] = i }
                }
                let known = members.count < JSONSmartParser.indexedMembers ? members.firstIndex(where: { $0.key == key }) : places[key]
                if let i = known {
                    members[i].value = value
                } else {
                    if members.count >= JSONSmartParser.indexedMembers { places[key] = members.count }
                    members.append((key, value))
                }
                skipSpace()
                if c == 0x7D {
                    read()
                    return .object(members)
                }
                guard c == 0x2C else { throw .syntax }
            }
        }
    }

    /// A quoted string: up to the next same quote when there is no backslash in between (control
    /// characters kept), else escape by escape (control characters dropped, unknown escapes too).
    private mutating func readString() throws(JSONSmartFailure) {
        let quote = c
        guard let close = units[(pos + 1)...].firstIndex(of: quote) else { throw .syntax }
        let plain = units[(pos + 1)..<close]
        if !plain.contains(0x5C) {
            xs = String(decoding: plain, as: UTF16.self)
            pos = close
            read()
            return
        }
        var out: [UInt16] = []
        while true {
            read()
            switch c {
            case JSONSmartParser.eoi: throw .syntax
            case quote:
                read()
                xs = String(decoding: out, as: UTF16.self)
                return
            case 0x5C:
                read()
                switch c {
                case 0x74: out.append(0x09)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x66: out.append(0x0C)
                case 0x62: out.append(0x08)
                case 0x5C, 0x2F, 0x27, 0x22: out.append(c)
                case 0x75: out.append(try readHex(4))
                case 0x78: out.append(try readHex(2))
                default: break
                }
            case 0...31, 127:
                continue
            default:
                out.append(c)
            }
        }
    }

    private mutating func readHex(_ count: Int) throws(JSONSmartFailure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<count {
            read()
            let digit: UInt16
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: throw .syntax
            }
            value = value &* 16 &+ digit
        }
        return value
    }

    /// `readNumber`: digits, a fraction, an exponent; text running on past them (before `stop`)
    /// makes the whole an unquoted string (`123abc`).
    private mutating func readNumber(_ stop: Stop) throws(JSONSmartFailure) -> JSONValue {
        let start = pos
        read()
        skipDigits()
        var isFloat = false
        if c == 0x2E {
            isFloat = true
            read()
            skipDigits()
        }
        if c == 0x45 || c == 0x65 {
            isFloat = true
            read()
            guard c == 0x2B || c == 0x2D || (c >= 0x30 && c <= 0x39) else {
                skipUnquoted(stop)
                return .string(trimmed(start, pos))
            }
            read()
            skipDigits()
        }
        skipSpace()
        if c < 126 && !stop.contains(c) && c != JSONSmartParser.eoi {
            skipUnquoted(stop)
            return .string(trimmed(start, pos))
        }
        let text = trimmed(start, pos)
        if !isFloat {
            // parseNumber: an int or long (a lone "-" is 0, "-0" is 0), a BigInteger past them.
            let value = Double(text) ?? 0
            return .number(value == 0 ? 0 : value)
        }
        // Double.parseDouble (or BigDecimal past 18 characters): "1." and "-.5" read, "-." does not.
        guard let value = Double(text) else { throw .syntax }
        // Java's Double.toString text for what overflows a double (this model has no infinities).
        guard value.isFinite else { return .string(value > 0 ? "Infinity" : "-Infinity") }
        return .number(value)
    }
}
