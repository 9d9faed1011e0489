import HTTPServer
import LinearRegex

/// A filter operand's value (Jayway's `ValueNode`s after evaluation).
enum JSONPathNode {
    case string(String)
    case number(Double, text: String)
    case bool(Bool)
    case null
    case undefined
    /// An array or object (Jayway's `JsonNode`).
    case json(JSONValue)
    case pattern(RegexPattern)

    /// Java's `left.equals(right)` between nodes: a string equals a number by text, a number a
    /// string by value (so `'2'` matches `2` from either side, `'2.0'` only from the number's).
    func javaEquals(_ other: JSONPathNode) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): return a == b
        case (.string(let a), .number(_, let text)): return a == text
        case (.number(let a, _), .number(let b, _)): return a == b
        case (.number(let a, _), .string(let b)):
            guard let n = JSONPathValues.javaDecimal(b) else { return false }
            return a == n
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.json(let a), .json(let b)): return JSONPathNode.javaEqual(a, b)
        case (.pattern(let a), .pattern(let b)): return a.source == b.source
        default: return false
        }
    }

    /// Java's equals on parsed JSON: maps ignore member order.
    static func javaEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { javaEqual($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && javaEqual($0.value, m.value) } }
        default: return a == b
        }
    }

    /// Which Java class the node is (for `===`).
    var kind: Int {
        switch self {
        case .string: return 0
        case .number: return 1
        case .bool: return 2
        case .null: return 3
        case .undefined: return 4
        case .json: return 5
        case .pattern: return 6
        }
    }

    /// A document value as a node (`PathNode.evaluate`'s conversion).
    init(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .number(let d): self = .number(d, text: JSONValue.numberText(d))
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        case .array, .object: self = .json(value)
        }
    }

    /// `ValueListNode`: the elements of an array as nodes; a nested array or object is an
    /// error Jayway does not catch ("Could not determine value type").
    static func list(_ value: JSONValue) throws(JSONPathFailure) -> [JSONPathNode]? {
        guard case .array(let items) = value else { return nil }
        var nodes: [JSONPathNode] = []
        for item in items {
            switch item {
            case .array, .object: throw .failed("Could not determine value type")
            case .string(let s):
                // toValueNode reads a string as a quoted literal: outer quotes come off.
                var text = Substring(s)
                if text.count > 1, let f = text.first, f == text.last, f == "'" || f == "\"" { text = text.dropFirst().dropLast() }
                nodes.append(.string(text.count == s.count ? s : JSONPathCompiler.unescape(String(text))))
            default: nodes.append(JSONPathNode(item))
            }
        }
        return nodes
    }
}

/// A filter applied to one item (`RelationalExpressionNode` / `LogicalExpressionNode.apply`
/// and `EvaluatorFactory`'s evaluators).
struct JSONPathFilterEvaluation {
    let item: JSONValue
    let root: JSONValue
    let options: JSONPathOptions

    func apply(_ predicate: JSONPathPredicate, _ budget: inout StubBudget) throws(JSONPathFailure) -> Bool {
        guard budget.spend(1) else { throw .overBudget }
        switch predicate {
        case .or(let operands):
            for p in operands where try apply(p, &budget) { return true }
            return false
        case .and(let operands):
            for p in operands where try !apply(p, &budget) { return false }
            return true
        case .not(let p):
            return try !apply(p, &budget)
        case .relation(let left, let op, let right):
            return try relate(try value(left, &budget), op, try value(right, &budget), &budget)
        }
    }

    private func value(_ operand: JSONPathOperand, _ budget: inout StubBudget) throws(JSONPathFailure) -> JSONPathNode {
        switch operand {
        case .string(let s): return .string(s)
        case .number(let d, let text): return .number(d, text: text)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .json(let j): return .json(j)
        case .pattern(let p): return .pattern(p)
        case .path(let path, let existsCheck, _):
            let start = path.isRootPath ? root : item
            if existsCheck {
                do {
                    _ = try path.read(start, root: root, options: JSONPathOptions(requireProperties: true), budget: &budget)
                    return .bool(true)
                } catch {
                    if case .notFound = error { return .bool(false) }
                    throw error
                }
            }
            do {
                return JSONPathNode(try path.read(start, root: root, options: options, budget: &budget))
            } catch {
                if case .notFound = error { return .undefined }
                throw error
            }
        }
    }

    private static func compare(_ l: JSONPathNode, _ r: JSONPathNode, _ test: (Int) -> Bool) -> Bool {
        switch (l, r) {
        case (.number(let a, _), .number(let b, _)): return test(a < b ? -1 : a > b ? 1 : 0)
        case (.string(let a), .string(let b)):
            // Java's compareTo: UTF-16 code units.
            if a == b { return test(0) }
            return test(a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1)
        default: return false
        }
    }

    /// The elements of a `JsonNode` array operand; nil when it is not an array (Jayway's
    /// UndefinedNode: the test fails), and an InvalidPathException when it is no `JsonNode`.
    private static func list(_ node: JSONPathNode) throws(JSONPathFailure) -> [JSONPathNode]? {
        guard case .json(let j) = node else { throw .invalid("Expected value list node") }
        return try JSONPathNode.list(j)
    }

    private func relate(_ l: JSONPathNode, _ op: JSONPathOperator, _ r: JSONPathNode, _ budget: inout StubBudget) throws(JSONPathFailure) -> Bool {
        switch op {
        case .exists:
            guard case .bool(let a) = l, case .bool(let b) = r else {
                if case .bool = l { throw .invalid("Expected boolean node") }
                if case .bool = r { throw .invalid("Expected boolean node") }
                throw .failed("Failed to evaluate exists expression")
            }
            return a == b
        case .eq: return l.javaEquals(r)
        case .ne: return !l.javaEquals(r)
        case .tseq: return l.kind == r.kind && l.javaEquals(r)
        case .tsne: return !(l.kind == r.kind && l.javaEquals(r))
        case .lt: return JSONPathFilterEvaluation.compare(l, r) { $0 < 0 }
        case .lte: return JSONPathFilterEvaluation.compare(l, r) { $0 <= 0 }
        case .gt: return JSONPathFilterEvaluation.compare(l, r) { $0 > 0 }
        case .gte: return JSONPathFilterEvaluation.compare(l, r) { $0 >= 0 }
        case .regex:
            let pattern: RegexPattern, input: JSONPathNode
            switch (l, r) {
            case (.pattern, .pattern): return false
            case (.pattern(let p), _): pattern = p; input = r
            case (_, .pattern(let p)): pattern = p; input = l
            default: return false
            }
            var text = ""
            switch input {
            case .string(let s): text = s
            case .number(_, let t): text = t
            case .bool(let b): text = b ? "true" : "false"
            default: break
            }
            guard budget.spend(text.utf8.count) else { throw .overBudget }
            return pattern.matchesWhole(text)
        case .size:
            guard case .number(let n, _) = r else { return false }
            let expected = Int(exactly: n.rounded(.towardZero)) ?? -2
            switch l {
            case .string(let s): return s.utf16.count == expected
            case .json(.array(let items)): return items.count == expected
            case .json: return expected == -1
            default: return false
            }
        case .empty:
            guard case .bool(let b) = r else { throw .invalid("Expected boolean node") }
            switch l {
            case .string(let s): return s.isEmpty == b
            case .json(.array(let items)): return items.isEmpty == b
            case .json(.object(let members)): return members.isEmpty == b
            default: return false
            }
        case .in, .nin:
            guard let values = try JSONPathFilterEvaluation.list(r) else { return op == .nin }
            guard budget.spend(values.count) else { throw .overBudget }
            let found = values.contains { l.javaEquals($0) }
            return op == .in ? found : !found
        case .contains:
            if case .string(let a) = l, case .string(let b) = r { return a.contains(b) }
            guard case .json(let j) = l else { return false }
            guard let values = try JSONPathNode.list(j) else { return false }
            return values.contains { r.javaEquals($0) }
        case .all, .type, .matches:
            // Their right sides (a value list, a class, a predicate) cannot be written in a filter.
            throw .invalid("operator \(op.rawValue) needs an operand a filter cannot spell")
        case .subsetof, .anyof, .noneof:
            guard let right = try JSONPathFilterEvaluation.list(r) else { return false }
            guard let left = try JSONPathFilterEvaluation.list(l) else { return false }
            guard budget.spend(left.count * Swift.max(1, right.count)) else { throw .overBudget }
            switch op {
            case .subsetof: return left.allSatisfy { a in right.contains { a.javaEquals($0) } }
            case .anyof: return left.contains { a in right.contains { a.javaEquals($0) } }
            default: return !left.contains { a in right.contains { a.javaEquals($0) } }
            }
        }
    }
}
