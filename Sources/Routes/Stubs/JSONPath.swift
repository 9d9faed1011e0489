import HTTPServer

/// The JSONPath subset WireMock mappings commonly use: members (`$.a.b`, `$['a']`), indexes
/// (`$.a[0]`), wildcards (`$.a[*]`) and filters `[?(@.x == 'y')]` (`==`, `!=`, `<`, `<=`, `>`,
/// `>=`, or a bare `@.x` for "has x"). Anything else is refused when the mapping is read.
struct JSONPath: Sendable {
    enum Step: Sendable {
        case member(String)
        case index(Int)
        case wildcard
        case filter(path: [String], op: String?, literal: JSONValue?)
    }

    let steps: [Step]
    let source: String

    /// No wildcard and no filter: the result is at most one value.
    var isDefinite: Bool {
        steps.allSatisfy { if case .member = $0 { return true }; if case .index = $0 { return true }; return false }
    }

    init(_ text: String, at pointer: String) throws(StubProblem) {
        source = text
        var s = Substring(text.trimmingASCIIWhitespace())
        func fail(_ why: String) -> StubProblem {
            StubProblem(pointer, "JSONPath \"\(text)\" is outside the supported subset ($.a.b, $['a'], $.a[0], $.a[*], [?(@.x == 'y')]): \(why)")
        }
        guard s.first == "$" else { throw fail("it must start with $") }
        s = s.dropFirst()
        var steps: [Step] = []
        while let c = s.first {
            if s.hasPrefix("..") { throw fail("deep scan (..) is not supported") }
            if c == "." {
                s = s.dropFirst()
                let name = s.prefix { $0 != "." && $0 != "[" }
                if name.isEmpty { throw fail("a name is missing after .") }
                if name.hasSuffix(")") { throw fail("functions such as \(name) are not supported") }
                steps.append(name == "*" ? .wildcard : .member(String(name)))
                s = s.dropFirst(name.count)
            } else if c == "[" {
                guard let close = JSONPath.closingBracket(s) else { throw fail("a [ is not closed") }
                let inside = s[s.index(after: s.startIndex)..<close].trimmingASCIIWhitespace()
                s = s[s.index(after: close)...]
                if inside == "*" {
                    steps.append(.wildcard)
                } else if let n = Int(inside) {
                    steps.append(.index(n))
                } else if let quoted = JSONPath.quoted(Substring(inside)) {
                    steps.append(.member(quoted))
                } else if inside.hasPrefix("?(") && inside.hasSuffix(")") {
                    steps.append(try JSONPath.filter(String(inside.dropFirst(2).dropLast()), fail))
                } else {
                    throw fail("[\(inside)] is not supported")
                }
            } else {
                throw fail("unexpected \"\(c)\"")
            }
        }
        self.steps = steps
    }

    private static func closingBracket(_ s: Substring) -> Substring.Index? {
        var quote: Character?
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if let q = quote { if c == q { quote = nil } } else if c == "'" || c == "\"" { quote = c } else if c == "]" { return i }
            i = s.index(after: i)
        }
        return nil
    }

    private static func quoted(_ s: Substring) -> String? {
        guard s.count >= 2, let f = s.first, f == s.last, f == "'" || f == "\"" else { return nil }
        return String(s.dropFirst().dropLast())
    }

    private static func filter(_ text: String, _ fail: (String) -> StubProblem) throws(StubProblem) -> Step {
        let ops = ["==", "!=", "<=", ">=", "<", ">"]
        var op: String?, left = Substring(text), right: Substring?
        for candidate in ops {
            if let r = text.firstRange(of: candidate) {
                op = candidate
                left = text[..<r.lowerBound]
                right = text[r.upperBound...]
                break
            }
        }
        let lhs = left.trimmingASCIIWhitespace()
        guard lhs.hasPrefix("@") else { throw fail("a filter must test @.member") }
        let names = lhs.dropFirst().split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        guard !names.isEmpty || op != nil else { throw fail("a filter must name a member") }
        if names.contains(where: { $0.contains("[") || $0.contains("(") }) { throw fail("filter paths are member names only") }
        guard let op, let right else { return .filter(path: names, op: nil, literal: nil) }
        let r = right.trimmingASCIIWhitespace()
        let literal: JSONValue
        if let q = quoted(Substring(r)) { literal = .string(q) } else if let n = Double(r) { literal = .number(n) }
        else if r == "true" || r == "false" { literal = .bool(r == "true") } else if r == "null" { literal = .null }
        else { throw fail("the right side of \(op) must be a quoted string, a number, true, false or null") }
        return .filter(path: names, op: op, literal: literal)
    }

    /// Every value the path selects; nothing once the budget runs out (`budget.exhausted`):
    /// wildcards and filters over a large body cost one step per value they look at.
    func evaluate(_ root: JSONValue, budget: inout StubBudget) -> [JSONValue] {
        var current = [root]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                let width: Int
                switch value {
                case .array(let items): width = items.count
                case .object(let members): width = members.count
                default: width = 0
                }
                guard budget.spend(1 + width) else { return [] }
                switch (step, value) {
                case (.member(let name), .object(let members)):
                    if let v = members.last(where: { $0.key == name })?.value { next.append(v) }
                case (.index(let i), .array(let items)):
                    let at = i < 0 ? items.count + i : i
                    if items.indices.contains(at) { next.append(items[at]) }
                case (.wildcard, .array(let items)): next += items
                case (.wildcard, .object(let members)): next += members.map(\.value)
                case (.filter(let path, let op, let literal), .array(let items)):
                    next += items.filter { JSONPath.test($0, path, op, literal) }
                case (.filter(let path, let op, let literal), .object):
                    if JSONPath.test(value, path, op, literal) { next.append(value) }
                default: break
                }
            }
            current = next
        }
        return current
    }

    private static func test(_ item: JSONValue, _ path: [String], _ op: String?, _ literal: JSONValue?) -> Bool {
        var value: JSONValue? = item
        for name in path { value = value?.stubMembers.last(where: { $0.key == name })?.value }
        guard let value else { return false }
        guard let op, let literal else { return true }
        switch op {
        case "==": return value == literal
        case "!=": return value != literal
        default:
            switch (value, literal) {
            case (.number(let a), .number(let b)):
                return op == "<" ? a < b : op == "<=" ? a <= b : op == ">" ? a > b : a >= b
            case (.string(let a), .string(let b)):
                return op == "<" ? a < b : op == "<=" ? a <= b : op == ">" ? a > b : a >= b
            default: return false
            }
        }
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
