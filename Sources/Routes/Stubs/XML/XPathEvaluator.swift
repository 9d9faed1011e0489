/// Evaluates an `XPath` over an `XMLDocument`. Each node visited and each comparison takes a
/// step from the budget; out of budget (or an error, such as an unbound prefix) is an error.
struct XPathEvaluator {
    enum Value {
        case nodes([Int])
        case string(String)
        case number(Double)
        case bool(Bool)
    }

    struct Failure: Error { let why: String }

    let document: XMLDocument
    /// `xPathNamespaces`: nil is WireMock's namespace-unaware reading (a name matches an
    /// element's local name whatever its prefix, and a prefixed name test matches nothing).
    let namespaces: [String: String]?
    var budget: StubBudget

    /// The selected nodes, in document order; a result that is not a node-set is an error, as in
    /// WireMock (which asks its engine for a NODESET).
    mutating func select(_ path: XPath) throws(Failure) -> [Int] {
        guard case .nodes(let nodes) = try evaluate(path.expression, context: 0, position: 1, size: 1) else {
            throw Failure(why: "\(path.source) does not select nodes")
        }
        return nodes
    }

    mutating func spend(_ n: Int = 1) throws(Failure) {
        guard budget.spend(n) else { throw Failure(why: "the step budget ran out") }
    }

    mutating func evaluate(_ expr: XPath.Expr, context: Int, position: Int, size: Int) throws(Failure) -> Value {
        try spend()
        switch expr {
        case .number(let n): return .number(n)
        case .literal(let s): return .string(s)
        case .path(let absolute, let steps):
            return .nodes(try walk(steps, from: [absolute ? 0 : context]))
        case .filter(let primary, let predicates, let steps):
            guard case .nodes(var nodes) = try evaluate(primary, context: context, position: position, size: size) else {
                throw Failure(why: "a predicate or a path step follows something that is not a node-set")
            }
            for predicate in predicates { nodes = try filter(nodes, predicate) }
            return .nodes(try walk(steps, from: nodes))
        case .negate(let e):
            return .number(-number(try evaluate(e, context: context, position: position, size: size)))
        case .binary(let op, let l, let r):
            let left = try evaluate(l, context: context, position: position, size: size)
            if op == "or" && boolean(left) { return .bool(true) }
            if op == "and" && !boolean(left) { return .bool(false) }
            let right = try evaluate(r, context: context, position: position, size: size)
            switch op {
            case "or", "and": return .bool(boolean(right))
            case "|":
                guard case .nodes(let a) = left, case .nodes(let b) = right else { throw Failure(why: "| joins node-sets only") }
                try spend(a.count + b.count)
                return .nodes(Array(Set(a).union(b)).sorted())
            case "=", "!=", "<", "<=", ">", ">=": return .bool(try compare(op, left, right))
            default:
                let x = number(left), y = number(right)
                switch op {
                case "+": return .number(x + y)
                case "-": return .number(x - y)
                case "*": return .number(x * y)
                case "div": return .number(x / y)
                default: return .number(x.truncatingRemainder(dividingBy: y))
                }
            }
        case .call(let name, let args):
            return try call(name, args, context: context, position: position, size: size)
        }
    }

    // MARK: Location steps

    mutating func walk(_ steps: [XPath.Step], from start: [Int]) throws(Failure) -> [Int] {
        var current = start
        for step in steps {
            var seen = Set<Int>()
            var next: [Int] = []
            for node in current {
                var found = try axis(step, from: node)
                for predicate in step.predicates { found = try filter(found, predicate) }
                for n in found where seen.insert(n).inserted { next.append(n) }
            }
            try spend(next.count)
            current = next.sorted()
        }
        return current
    }

    /// Keeps the nodes (in the axis's order) for which the predicate holds; a number is a position.
    mutating func filter(_ nodes: [Int], _ predicate: XPath.Expr) throws(Failure) -> [Int] {
        var kept: [Int] = []
        for (k, node) in nodes.enumerated() {
            let value = try evaluate(predicate, context: node, position: k + 1, size: nodes.count)
            let keep: Bool
            if case .number(let n) = value { keep = n == Double(k + 1) } else { keep = boolean(value) }
            if keep { kept.append(node) }
        }
        return kept
    }

    /// The nodes on `step`'s axis from `node` that pass its node test, nearest first.
    mutating func axis(_ step: XPath.Step, from node: Int) throws(Failure) -> [Int] {
        let doc = document
        var out: [Int] = []
        func consider(_ n: Int) throws(Failure) {
            try spend()
            if try passes(step, n) { out.append(n) }
        }
        let isAttribute = doc[node].kind == .attribute
        switch step.axis {
        case .child:
            for n in doc[node].children { try consider(n) }
        case .attribute:
            for n in doc[node].attributes { try consider(n) }
        case .selfAxis:
            try consider(node)
        case .parent:
            if node != 0 { try consider(doc[node].parent) }
        case .ancestor, .ancestorOrSelf:
            if step.axis == .ancestorOrSelf { try consider(node) }
            var n = node
            while n != 0 { n = doc[n].parent; try consider(n) }
        case .descendant, .descendantOrSelf:
            if step.axis == .descendantOrSelf { try consider(node) }
            var stack = Array(doc[node].children.reversed())
            while let n = stack.popLast() {
                try consider(n)
                stack.append(contentsOf: doc[n].children.reversed())
            }
        case .followingSibling, .precedingSibling:
            guard !isAttribute, node != 0 else { break }
            let siblings = doc[doc[node].parent].children
            guard let k = siblings.firstIndex(of: node) else { break }
            if step.axis == .followingSibling {
                for n in siblings[(k + 1)...] { try consider(n) }
            } else {
                for n in siblings[..<k].reversed() { try consider(n) }
            }
        case .following:
            // Nodes are stored in document order, so what follows a subtree is everything after its last node.
            var last = isAttribute ? doc[node].parent : node
            let owner = last
            while let child = doc[last].children.last ?? doc[last].attributes.last { last = child }
            if isAttribute { last = max(last, owner) }
            var n = last + 1
            while n < doc.nodes.count {
                if doc[n].kind != .attribute { try consider(n) }
                n += 1
            }
        case .preceding:
            let start = isAttribute ? doc[node].parent : node
            var n = start - 1
            while n > 0 {
                if doc[n].kind != .attribute && !doc.isInside(start, n) { try consider(n) }
                n -= 1
            }
        }
        return out
    }

    func passes(_ step: XPath.Step, _ n: Int) throws(Failure) -> Bool {
        let node = document[n]
        switch step.test {
        case .node: return true
        case .text: return node.kind == .text
        case .comment: return node.kind == .comment
        case .processingInstruction(let target): return node.kind == .processingInstruction && (target == nil || target == node.name)
        case .name(let prefix, let local):
            let principal: XMLDocument.Kind = step.axis == .attribute ? .attribute : .element
            guard node.kind == principal else { return false }
            guard let namespaces else {
                if prefix != nil { return false }
                guard let local else { return true }
                return step.wholeName ? node.name == local : node.localName == local
            }
            var uri: String?
            if let prefix {
                guard let bound = namespaces[prefix] ?? (prefix == "xml" ? "http://www.w3.org/XML/1998/namespace" : nil) else {
                    throw Failure(why: "the prefix \(prefix) is not in xPathNamespaces")
                }
                uri = bound
            }
            guard node.namespace == uri else { return false }
            return local == nil || node.localName == local
        }
    }

    // MARK: Conversions

    mutating func string(_ value: Value) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return XPathEvaluator.format(n)
        case .nodes(let nodes):
            guard let first = nodes.first else { return "" }
            return document.stringValue(first, budget: &budget)
        }
    }

    mutating func number(_ value: Value) -> Double {
        switch value {
        case .number(let n): return n
        case .bool(let b): return b ? 1 : 0
        default: return XPathEvaluator.number(string(value))
        }
    }

    func boolean(_ value: Value) -> Bool {
        switch value {
        case .bool(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let s): return !s.isEmpty
        case .nodes(let nodes): return !nodes.isEmpty
        }
    }

    static func number(_ text: String) -> Double {
        let t = text.trimmingJavaWhitespace()
        // XPath 1.0's Number: digits with an optional point and an optional leading minus; nothing else.
        let body = t.hasPrefix("-") ? t.dropFirst() : Substring(t)
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              body.filter({ $0 == "." }).count <= 1, body != ".", let n = Double(t) else { return .nan }
        return n
    }

    /// XPath's number-to-string: integers without a fraction, no exponent.
    static func format(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        // Swift's shortest form; tiny or huge non-integers keep its exponent (XPath writes them out).
        return "\(n)"
    }

    mutating func compare(_ op: String, _ left: Value, _ right: Value) throws(Failure) -> Bool {
        switch (left, right) {
        case (.nodes(let a), .nodes(let b)):
            let bs = b.map { document.stringValue($0, budget: &budget) }
            for x in a {
                let sx = document.stringValue(x, budget: &budget)
                for sy in bs {
                    try spend()
                    if atomic(op, .string(sx), .string(sy)) { return true }
                }
            }
            return false
        case (.nodes(let a), _):
            if case .bool = right { return atomic(op, .bool(!a.isEmpty), right) }
            for x in a {
                try spend()
                if atomic(op, .string(document.stringValue(x, budget: &budget)), right) { return true }
            }
            return false
        case (_, .nodes(let b)):
            if case .bool = left { return atomic(op, left, .bool(!b.isEmpty)) }
            for y in b {
                try spend()
                if atomic(op, left, .string(document.stringValue(y, budget: &budget))) { return true }
            }
            return false
        default:
            return atomic(op, left, right)
        }
    }

    mutating func atomic(_ op: String, _ l: Value, _ r: Value) -> Bool {
        if op == "=" || op == "!=" {
            let equal: Bool
            switch (l, r) {
            case (.bool, _), (_, .bool): equal = boolean(l) == boolean(r)
            case (.number, _), (_, .number): equal = number(l) == number(r)
            default: equal = string(l) == string(r)
            }
            return op == "=" ? equal : !equal
        }
        let x = number(l), y = number(r)
        switch op {
        case "<": return x < y
        case "<=": return x <= y
        case ">": return x > y
        default: return x >= y
        }
    }
}
