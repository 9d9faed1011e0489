import HTTPServer
import LinearRegex

/// A filter `[?(…)]` as Jayway's `FilterCompiler` builds it: `||` of `&&` of operands, each a
/// `!`, a parenthesised filter or a relation (`@.a == 'x'`, or a bare `@.a` that tests existence).
indirect enum JSONPathPredicate: Sendable {
    case or([JSONPathPredicate])
    case and([JSONPathPredicate])
    case not(JSONPathPredicate)
    case relation(JSONPathOperand, JSONPathOperator, JSONPathOperand)
}

/// One side of a relation, as written.
enum JSONPathOperand: Sendable {
    case string(String)
    /// The value, and its text as Java's `BigDecimal` prints it (a string equals a number by that text).
    case number(Double, text: String)
    case bool(Bool)
    case null
    /// `[…]` or `{…}`, JSON with 'single-quoted' strings allowed.
    case json(JSONValue)
    case pattern(RegexPattern)
    /// `@.a` / `$.a`; `existsCheck` for a bare path, `shouldExist` false after `!`.
    case path(JSONPath, existsCheck: Bool, shouldExist: Bool)
}

/// Jayway's `RelationalOperator`s (case-insensitive words).
enum JSONPathOperator: String, Sendable, CaseIterable {
    case gte = ">=", lte = "<=", eq = "==", tseq = "===", ne = "!=", tsne = "!==", lt = "<", gt = ">"
    case regex = "=~", nin = "NIN", `in` = "IN", contains = "CONTAINS", all = "ALL", size = "SIZE"
    case exists = "EXISTS", type = "TYPE", matches = "MATCHES", empty = "EMPTY"
    case subsetof = "SUBSETOF", anyof = "ANYOF", noneof = "NONEOF"
}

/// Jayway's `FilterCompiler`, read for read. `soft` errors are the `InvalidPathException`s its
/// `readExpression` recovers from (trying the left side as an existence test instead).
struct JSONPathFilterCompiler {
    private var c: JSONPathCursor
    private let depth: Int

    private struct Soft: Error { let message: String }

    static func compile(_ criteria: ArraySlice<Unicode.Scalar>, depth: Int) throws(JSONPathSyntaxError) -> JSONPathPredicate {
        var compiler = JSONPathFilterCompiler(c: JSONPathCursor(criteria), depth: depth)
        let text = compiler.c.string(0, compiler.c.text.count)
        compiler.c.trim()
        guard compiler.c.currentIs("["), compiler.c.at(compiler.c.end) == "]" else {
            throw JSONPathSyntaxError("Filter must start with '[' and end with ']'. \(text)")
        }
        compiler.c.position += 1
        compiler.c.end -= 1
        compiler.c.trim()
        guard compiler.c.currentIs("?") else { throw JSONPathSyntaxError("Filter must start with '[?' and end with ']'. \(text)") }
        compiler.c.position += 1
        compiler.c.trim()
        guard compiler.c.currentIs("("), compiler.c.at(compiler.c.end) == ")" else {
            throw JSONPathSyntaxError("Filter must start with '[?(' and end with ')]'. \(text)")
        }
        do {
            let result = try compiler.readOr()
            compiler.c.skipBlanks()
            if compiler.c.inBounds {
                throw JSONPathSyntaxError("Expected end of filter expression instead of: \(compiler.c.string(compiler.c.position, compiler.c.end + 1))")
            }
            return result
        } catch let error as Soft {
            throw JSONPathSyntaxError(error.message)
        } catch let error as JSONPathSyntaxError {
            throw error
        } catch {
            throw JSONPathSyntaxError("Failed to parse filter: \(text)")
        }
    }

    private static func isRelationalChar(_ ch: Unicode.Scalar) -> Bool {
        ch == "<" || ch == ">" || ch == "=" || ch == "~" || ch == "!"
    }

    private mutating func readOr() throws -> JSONPathPredicate {
        var operands = [try readAnd()]
        while true {
            let save = c.position
            if c.take("||") { operands.append(try readAnd()) } else { c.position = save; break }
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func readAnd() throws -> JSONPathPredicate {
        var operands = [try readAndOperand()]
        while true {
            let save = c.position
            if c.take("&&") { operands.append(try readAndOperand()) } else { c.position = save; break }
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func readSignificant(_ ch: Unicode.Scalar) throws {
        c.skipBlanks()
        guard c.currentIs(ch) else { throw Soft(message: "Expected character: \(ch)") }
        c.position += 1
    }

    private mutating func readAndOperand() throws -> JSONPathPredicate {
        c.skipBlanks()
        let save = c.position
        if c.currentIs("!") {
            try readSignificant("!")
            c.skipBlanks()
            if c.current == "$" || c.current == "@" {
                c.position = save
            } else {
                return .not(try readAndOperand())
            }
        }
        c.skipBlanks()
        if c.currentIs("(") {
            try readSignificant("(")
            let inner = try readOr()
            try readSignificant(")")
            return inner
        }
        return try readExpression()
    }

    private mutating func readExpression() throws -> JSONPathPredicate {
        let left = try readValue()
        let save = c.position
        do {
            let op = try readOperator()
            let right = try readValue()
            return .relation(left, op, right)
        } catch is Soft {
            c.position = save
        }
        guard case .path(let path, _, let shouldExist) = left else { throw Soft(message: "Expected path node") }
        return .relation(.path(path, existsCheck: true, shouldExist: shouldExist), .exists, .bool(shouldExist))
    }

    private mutating func readOperator() throws -> JSONPathOperator {
        c.skipBlanks()
        let begin = c.position
        if JSONPathFilterCompiler.isRelationalChar(c.current) {
            while c.inBounds && JSONPathFilterCompiler.isRelationalChar(c.current) { c.position += 1 }
        } else {
            while c.inBounds && c.current != " " { c.position += 1 }
        }
        let word = c.string(begin, c.position)
        guard let op = JSONPathOperator(rawValue: word.uppercased()) else { throw Soft(message: "Filter operator \(word) is not supported!") }
        return op
    }

    private mutating func readValue() throws -> JSONPathOperand {
        c.skipBlanks()
        switch c.current {
        case "$", "@": return try readPath()
        case "!":
            c.position += 1
            c.skipBlanks()
            guard c.current == "$" || c.current == "@" else { throw Soft(message: "Unexpected character: !") }
            return try readPath()
        default: return try readLiteral()
        }
    }

    private mutating func readLiteral() throws -> JSONPathOperand {
        c.skipBlanks()
        switch c.current {
        case "'", "\"": return try readString(c.current)
        case "t", "f": return try readBool()
        case "n": return try readNull()
        case "{", "[": return try readJSON()
        case "/": return try readPattern()
        default: return try readNumber()
        }
    }

    private mutating func readString(_ quote: Unicode.Scalar) throws -> JSONPathOperand {
        let close = c.nextUnescaped(quote, after: c.position)
        guard close != -1 else { throw Soft(message: "String literal does not have matching quotes. Expected \(quote)") }
        let text = c.string(c.position + 1, close)
        c.position = close + 1
        return .string(JSONPathCompiler.unescape(text))
    }

    private mutating func readBool() throws -> JSONPathOperand {
        let end = c.position + (c.current == "t" ? 3 : 4)
        guard c.inBounds(end) else { throw Soft(message: "Expected boolean literal") }
        let word = c.string(c.position, end + 1)
        guard word == "true" || word == "false" else { throw Soft(message: "Expected boolean literal") }
        c.position += word.unicodeScalars.count
        return .bool(word == "true")
    }

    private mutating func readNull() throws -> JSONPathOperand {
        guard c.inBounds(c.position + 3), c.string(c.position, c.position + 4) == "null" else { throw Soft(message: "Expected <null> value") }
        c.position += 4
        return .null
    }

    private mutating func readJSON() throws -> JSONPathOperand {
        let open = c.current
        guard let close = c.matchingClose(c.position, open, open == "[" ? "]" : "}", skipRegex: false) else {
            throw Soft(message: "String not closed. Expected ' in filter")
        }
        let text = c.string(c.position, close + 1)
        c.position = close + 1
        guard let json = JSONPathFilterCompiler.permissiveJSON(text) else {
            throw JSONPathSyntaxError("the filter's JSON \(text) is not JSON (json-smart's other permissive forms are not read here)")
        }
        return .json(json)
    }

    /// JSON, also with 'single-quoted' strings, as json-smart's permissive mode reads the lists of `in`.
    static func permissiveJSON(_ text: String) -> JSONValue? {
        if let json = JSONValue.parse(text) { return json }
        var out = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        var escaped = false
        for ch in text.unicodeScalars {
            if let q = quote {
                if escaped { escaped = false; out.append(ch == "'" && q == "'" ? "'" : ch); continue }
                if ch == "\\" { escaped = true; if q == "\"" { out.append(ch) } else { out.append("\\") }; continue }
                if ch == q { quote = nil; out.append("\""); continue }
                if ch == "\"" && q == "'" { out.append(contentsOf: "\\\"".unicodeScalars); continue }
                out.append(ch)
            } else if ch == "'" || ch == "\"" {
                quote = ch
                out.append("\"")
            } else {
                out.append(ch)
            }
        }
        return JSONValue.parse(String(out))
    }

    private mutating func readPattern() throws -> JSONPathOperand {
        let begin = c.position
        var close = c.nextUnescaped("/", after: c.position)
        guard close != -1 else { throw Soft(message: "Pattern not closed. Expected / in filter") }
        var flags = ""
        var i = close + 1
        while c.inBounds(i), "dixmsuU".unicodeScalars.contains(c.text[i]) { flags.unicodeScalars.append(c.text[i]); i += 1 }
        close += flags.unicodeScalars.count
        c.position = close + 1
        let body = c.string(begin + 1, close - flags.unicodeScalars.count)
        if flags.contains("U") { throw JSONPathSyntaxError("the regex flag U (UNICODE_CHARACTER_CLASS) of /\(body)/\(flags) is not supported") }
        let inline = flags.isEmpty ? "" : "(?" + String(Set(flags).sorted()) + ")"
        do {
            return .pattern(try RegexPattern(inline + body))
        } catch {
            throw JSONPathSyntaxError("the regex /\(body)/\(flags) is refused: \(error)")
        }
    }

    private mutating func readNumber() throws -> JSONPathOperand {
        let begin = c.position
        while c.inBounds {
            let ch = c.current
            guard (ch >= "0" && ch <= "9") || ch == "-" || ch == "." || ch == "E" || ch == "e" else { break }
            c.position += 1
        }
        let text = c.string(begin, c.position)
        guard let value = JSONPathValues.javaDecimal(text) else { throw JSONPathSyntaxError("Failed to parse filter: \(text) is not a number") }
        return .number(value, text: text)
    }

    private mutating func readPath() throws -> JSONPathOperand {
        let previous = c.previousSignificantIndex(before: c.position)
        let negated = previous != -1 && c.text[previous] == "!"
        let begin = c.position
        c.position += 1
        while c.inBounds {
            if c.currentIs("[") {
                guard let close = c.matchingClose(c.position, "[", "]", skipRegex: false) else {
                    throw Soft(message: "Square brackets does not match in filter")
                }
                c.position = close + 1
            }
            guard c.position < c.text.count else { throw JSONPathSyntaxError("Failed to parse filter") }
            let closingFunction = c.current == ")" && closesFunction(begin)
            let closingLogical = c.current == ")" && !closingFunction
            if !c.inBounds || JSONPathFilterCompiler.isRelationalChar(c.current) || c.current == " " || closingLogical { break }
            c.position += 1
        }
        let text = c.string(begin, c.position)
        do {
            let path = try JSONPathCompiler.compile(text, depth: depth + 1)
            return .path(path, existsCheck: false, shouldExist: !negated)
        } catch {
            throw Soft(message: error.message)
        }
    }

    private func closesFunction(_ lowerBound: Int) -> Bool {
        guard c.current == ")" else { return false }
        var i = c.previousSignificantIndex(before: c.position)
        guard i != -1, c.text[i] == "(" else { return false }
        i -= 1
        while c.inBounds(i) && i > lowerBound {
            if c.text[i] == "." { return true }
            i -= 1
        }
        return false
    }
}
