/// An XPath 1.0 expression, compiled once when the mapping is read.
struct XPath: Sendable {
    let source: String
    let expression: Expr

    enum Axis: String, Sendable {
        case child, descendant, attribute, parent, ancestor
        case selfAxis = "self"
        case descendantOrSelf = "descendant-or-self"
        case ancestorOrSelf = "ancestor-or-self"
        case followingSibling = "following-sibling"
        case precedingSibling = "preceding-sibling"
        case following, preceding

        var isReverse: Bool { [.parent, .ancestor, .ancestorOrSelf, .precedingSibling, .preceding].contains(self) }
    }

    enum NodeTest: Sendable {
        /// `name`, `p:name`, `*`, `p:*` (local nil: any name).
        case name(prefix: String?, local: String?)
        case text, node, comment
        case processingInstruction(String?)
    }

    struct Step: Sendable {
        var axis: Axis
        var test: NodeTest
        var predicates: [Expr]
        /// Xalan, on the namespace-unaware DOM WireMock builds, compares the whole written name
        /// (`m:a`) for a lone `//a` or `/descendant::a` path, and the local name elsewhere.
        var wholeName = false
    }

    indirect enum Expr: Sendable {
        case number(Double)
        case literal(String)
        /// A location path; `absolute` starts at the document.
        case path(absolute: Bool, steps: [Step])
        /// A primary expression with predicates, then location steps from its nodes.
        case filter(Expr, predicates: [Expr], steps: [Step])
        case binary(String, Expr, Expr)
        case negate(Expr)
        case call(String, [Expr])
    }

    static let functions: [String: ClosedRange<Int>] = [
        "last": 0...0, "position": 0...0, "count": 1...1, "local-name": 0...1, "namespace-uri": 0...1, "name": 0...1,
        "string": 0...1, "concat": 2...64, "starts-with": 2...2, "contains": 2...2, "substring-before": 2...2,
        "substring-after": 2...2, "substring": 2...3, "string-length": 0...1, "normalize-space": 0...1,
        "translate": 3...3, "boolean": 1...1, "not": 1...1, "true": 0...0, "false": 0...0, "lang": 1...1,
        "number": 0...1, "sum": 1...1, "floor": 1...1, "ceiling": 1...1, "round": 1...1,
    ]

    /// Compiles `source`; a syntax error, an unknown function or the namespace axis is an error
    /// (WireMock's XPath engine fails on them too: such a matcher never matches).
    init(_ source: String) throws(XMLSyntaxError) {
        self.source = source
        var parser = Parser(tokens: try XPath.tokens(source))
        let expr = try parser.expr()
        guard parser.at == parser.tokens.count else { throw XMLSyntaxError(description: "unexpected \(parser.tokens[parser.at]) in XPath \(source)") }
        // The Xalan quirk above: only a lone name step below the root.
        if case .path(true, var steps) = expr {
            if steps.count == 2, case .descendantOrSelf = steps[0].axis, case .node = steps[0].test, steps[0].predicates.isEmpty,
               steps[1].axis == .child, steps[1].predicates.isEmpty, case .name(nil, .some) = steps[1].test {
                steps[1].wholeName = true
            } else if steps.count == 1, steps[0].axis == .descendant, steps[0].predicates.isEmpty, case .name(nil, .some) = steps[0].test {
                steps[0].wholeName = true
            }
            expression = .path(absolute: true, steps: steps)
        } else {
            expression = expr
        }
    }

    enum Token: Sendable, Equatable, CustomStringConvertible {
        case symbol(String)
        case name(String)
        case literal(String)
        case number(Double)
        var description: String {
            switch self {
            case .symbol(let s), .name(let s): return "\"\(s)\""
            case .literal(let s): return "'\(s)'"
            case .number(let n): return "\(n)"
            }
        }
    }

    static func tokens(_ source: String) throws(XMLSyntaxError) -> [Token] {
        let chars = Array(source.unicodeScalars)
        var out: [Token] = []
        var i = 0
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || c == "_" }
        func isNameChar(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) || c == "-" || c == "." || c.value > 0x7F }
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
            let two = i + 1 < chars.count ? String(c) + String(chars[i + 1]) : ""
            if ["//", "::", "..", "!=", "<=", ">="].contains(two) { out.append(.symbol(two)); i += 2; continue }
            if c == "\"" || c == "'" {
                guard let end = chars[(i + 1)...].firstIndex(of: c) else { throw XMLSyntaxError(description: "a quote is not closed in XPath \(source)") }
                out.append(.literal(String(String.UnicodeScalarView(chars[(i + 1)..<end]))))
                i = end + 1
                continue
            }
            if ("0"..."9").contains(c) || (c == "." && i + 1 < chars.count && ("0"..."9").contains(chars[i + 1])) {
                var j = i
                while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "." { j += 1 }
                guard let n = Double(String(String.UnicodeScalarView(chars[i..<j]))) else { throw XMLSyntaxError(description: "bad number in XPath \(source)") }
                out.append(.number(n))
                i = j
                continue
            }
            if "/()[]@,|+-=<>*.$".unicodeScalars.contains(c) { out.append(.symbol(String(c))); i += 1; continue }
            if isNameStart(c) {
                var j = i
                while j < chars.count, isNameChar(chars[j]) { j += 1 }
                // `p:name` and `p:*` are one token (a `::` is not part of a name).
                if j + 1 < chars.count, chars[j] == ":", chars[j + 1] != ":" {
                    if chars[j + 1] == "*" {
                        j += 2
                    } else if isNameStart(chars[j + 1]) {
                        j += 1
                        while j < chars.count, isNameChar(chars[j]) { j += 1 }
                    }
                }
                out.append(.name(String(String.UnicodeScalarView(chars[i..<j]))))
                i = j
                continue
            }
            throw XMLSyntaxError(description: "unexpected \"\(c)\" in XPath \(source)")
        }
        return out
    }

    /// Recursive descent over XPath 1.0's grammar; nesting is capped so no expression recurses deeply.
    private struct Parser {
        let tokens: [Token]
        var at = 0
        var depth = 0

        func fail(_ why: String) -> XMLSyntaxError { XMLSyntaxError(description: "XPath: \(why)") }
        var next: Token? { at < tokens.count ? tokens[at] : nil }
        func isSymbol(_ s: String) -> Bool { next == .symbol(s) }
        mutating func take(_ s: String) -> Bool {
            if isSymbol(s) { at += 1; return true }
            return false
        }
        func isName(_ s: String) -> Bool { next == .name(s) }

        mutating func expr() throws(XMLSyntaxError) -> Expr {
            depth += 1
            defer { depth -= 1 }
            guard depth < 48 else { throw fail("the expression is nested too deeply") }
            return try or()
        }

        mutating func or() throws(XMLSyntaxError) -> Expr {
            var left = try and()
            while isName("or") { at += 1; left = .binary("or", left, try and()) }
            return left
        }
        mutating func and() throws(XMLSyntaxError) -> Expr {
            var left = try equality()
            while isName("and") { at += 1; left = .binary("and", left, try equality()) }
            return left
        }
        mutating func equality() throws(XMLSyntaxError) -> Expr {
            var left = try relational()
            while let op = ["=", "!="].first(where: isSymbol) { at += 1; left = .binary(op, left, try relational()) }
            return left
        }
        mutating func relational() throws(XMLSyntaxError) -> Expr {
            var left = try additive()
            while let op = ["<", "<=", ">", ">="].first(where: isSymbol) { at += 1; left = .binary(op, left, try additive()) }
            return left
        }
        mutating func additive() throws(XMLSyntaxError) -> Expr {
            var left = try multiplicative()
            while let op = ["+", "-"].first(where: isSymbol) { at += 1; left = .binary(op, left, try multiplicative()) }
            return left
        }
        mutating func multiplicative() throws(XMLSyntaxError) -> Expr {
            var left = try unary()
            while true {
                if isSymbol("*") { at += 1; left = .binary("*", left, try unary()) }
                else if isName("div") || isName("mod") {
                    guard case .name(let op) = tokens[at] else { break }
                    at += 1
                    left = .binary(op, left, try unary())
                } else { break }
            }
            return left
        }
        mutating func unary() throws(XMLSyntaxError) -> Expr {
            var negations = 0
            while take("-") { negations += 1 }
            var e = try union()
            for _ in 0..<negations { e = .negate(e) }
            return e
        }
        mutating func union() throws(XMLSyntaxError) -> Expr {
            var left = try pathExpr()
            while take("|") { left = .binary("|", left, try pathExpr()) }
            return left
        }

        mutating func pathExpr() throws(XMLSyntaxError) -> Expr {
            // A filter expression starts with a literal, number, `(`, `$` or a function call.
            var primary: Expr?
            switch next {
            case .literal(let s)?: at += 1; primary = .literal(s)
            case .number(let n)?: at += 1; primary = .number(n)
            case .symbol("(")?:
                at += 1
                let inner = try expr()
                guard take(")") else { throw fail("\")\" expected") }
                primary = inner
            case .symbol("$")?: throw fail("variables are not supported")
            case .name(let n)? where at + 1 < tokens.count && tokens[at + 1] == .symbol("(") && !["node", "text", "comment", "processing-instruction"].contains(n):
                guard let arity = XPath.functions[n] else { throw fail("unknown function \(n)()") }
                at += 2
                var args: [Expr] = []
                if !take(")") {
                    repeat { args.append(try expr()) } while take(",")
                    guard take(")") else { throw fail("\")\" expected after the arguments of \(n)()") }
                }
                guard arity.contains(args.count) else { throw fail("\(n)() takes \(arity.lowerBound)…\(arity.upperBound) arguments") }
                primary = .call(n, args)
            default: break
            }
            if let primary {
                var predicates: [Expr] = []
                while take("[") {
                    predicates.append(try expr())
                    guard take("]") else { throw fail("\"]\" expected") }
                }
                var steps: [Step] = []
                if isSymbol("/") || isSymbol("//") { steps = try relativeSteps(afterSlash: true) }
                if predicates.isEmpty && steps.isEmpty { return primary }
                return .filter(primary, predicates: predicates, steps: steps)
            }
            if isSymbol("/") || isSymbol("//") {
                let lone = isSymbol("/")
                if lone {
                    at += 1
                    // `/` alone: the document.
                    if !startsStep { return .path(absolute: true, steps: []) }
                    return .path(absolute: true, steps: try relativeSteps(afterSlash: false))
                }
                return .path(absolute: true, steps: try relativeSteps(afterSlash: true))
            }
            return .path(absolute: false, steps: try relativeSteps(afterSlash: false))
        }

        var startsStep: Bool {
            switch next {
            case .name?, .symbol("@")?, .symbol("*")?, .symbol(".")?, .symbol("..")?: return true
            default: return false
            }
        }

        /// Steps separated by `/` or `//`; with `afterSlash` the first separator is still to read.
        mutating func relativeSteps(afterSlash: Bool) throws(XMLSyntaxError) -> [Step] {
            var steps: [Step] = []
            var needSeparator = afterSlash
            while true {
                if needSeparator {
                    if take("//") { steps.append(Step(axis: .descendantOrSelf, test: .node, predicates: [])) }
                    else if !take("/") { break }
                }
                steps.append(try step())
                needSeparator = true
                if !(isSymbol("/") || isSymbol("//")) { break }
            }
            return steps
        }

        mutating func step() throws(XMLSyntaxError) -> Step {
            if take(".") { return Step(axis: .selfAxis, test: .node, predicates: []) }
            if take("..") { return Step(axis: .parent, test: .node, predicates: []) }
            var axis = XPath.Axis.child
            if take("@") {
                axis = .attribute
            } else if case .name(let n)? = next, at + 1 < tokens.count, tokens[at + 1] == .symbol("::") {
                if n == "namespace" { throw fail("the namespace axis is not supported") }
                guard let a = XPath.Axis(rawValue: n) else { throw fail("unknown axis \(n)") }
                axis = a
                at += 2
            }
            let test: NodeTest
            switch next {
            case .symbol("*")?:
                at += 1
                test = .name(prefix: nil, local: nil)
            case .name(let n)?:
                at += 1
                if ["node", "text", "comment", "processing-instruction"].contains(n), take("(") {
                    var target: String?
                    if n == "processing-instruction", case .literal(let s)? = next { target = s; at += 1 }
                    guard take(")") else { throw fail("\")\" expected after \(n)(") }
                    test = n == "node" ? .node : n == "text" ? .text : n == "comment" ? .comment : .processingInstruction(target)
                } else if let colon = n.firstIndex(of: ":") {
                    let local = String(n[n.index(after: colon)...])
                    test = .name(prefix: String(n[..<colon]), local: local == "*" ? nil : local)
                } else {
                    test = .name(prefix: nil, local: n)
                }
            default:
                throw fail(next.map { "unexpected \($0)" } ?? "the expression ends early")
            }
            var predicates: [Expr] = []
            while take("[") {
                predicates.append(try expr())
                guard take("]") else { throw fail("\"]\" expected") }
            }
            return Step(axis: axis, test: test, predicates: predicates)
        }
    }
}
