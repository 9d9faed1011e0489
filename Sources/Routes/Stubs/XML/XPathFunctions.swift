/// XPath 1.0's core function library.
extension XPathEvaluator {
    mutating func call(_ name: String, _ args: [XPath.Expr], context: Int, position: Int, size: Int) throws(Failure) -> Value {
        var values: [Value] = []
        for arg in args { values.append(try evaluate(arg, context: context, position: position, size: size)) }
        func nodeArg() throws(Failure) -> Int? {
            guard let first = values.first else { return context }
            guard case .nodes(let nodes) = first else { throw Failure(why: "\(name)() takes a node-set") }
            return nodes.first
        }
        func text(_ k: Int) -> String { string(values[k]) }
        switch name {
        case "last": return .number(Double(size))
        case "position": return .number(Double(position))
        case "count":
            guard case .nodes(let nodes) = values[0] else { throw Failure(why: "count() takes a node-set") }
            return .number(Double(nodes.count))
        case "local-name", "name", "namespace-uri":
            guard let n = try nodeArg() else { return .string("") }
            let node = document[n]
            guard node.kind == .element || node.kind == .attribute || node.kind == .processingInstruction else { return .string("") }
            if name == "namespace-uri" { return .string(namespaces == nil ? "" : node.namespace ?? "") }
            if node.kind == .processingInstruction { return .string(node.name) }
            return .string(name == "name" ? node.name : node.localName)
        case "string":
            return .string(values.isEmpty ? document.stringValue(context, budget: &budget) : text(0))
        case "concat":
            return .string((0..<values.count).map(text).joined())
        case "starts-with": return .bool(text(0).hasPrefix(text(1)))
        case "contains": return .bool(text(1).isEmpty || text(0).contains(text(1)))
        case "substring-before":
            let s = text(0), t = text(1)
            guard let r = s.firstRange(of: t) else { return .string("") }
            return .string(String(s[..<r.lowerBound]))
        case "substring-after":
            let s = text(0), t = text(1)
            guard let r = s.firstRange(of: t) else { return .string("") }
            return .string(String(s[r.upperBound...]))
        case "substring":
            let chars = Array(text(0))
            let start = (number(values[1])).xpathRounded
            let end = values.count > 2 ? start + number(values[2]).xpathRounded : .infinity
            // Characters at positions p (from 1) with start <= p < end; NaN bounds select nothing.
            guard !start.isNaN, !end.isNaN else { return .string("") }
            let from = max(1, start), to = min(Double(chars.count) + 1, end)
            guard from < to else { return .string("") }
            return .string(String(chars[(Int(from) - 1)..<(Int(to) - 1)]))
        case "string-length":
            return .number(Double((values.isEmpty ? document.stringValue(context, budget: &budget) : text(0)).count))
        case "normalize-space":
            let s = values.isEmpty ? document.stringValue(context, budget: &budget) : text(0)
            return .string(s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " "))
        case "translate":
            let from = Array(text(1)), to = Array(text(2))
            var out = ""
            for c in text(0) {
                if let k = from.firstIndex(of: c) {
                    if k < to.count { out.append(to[k]) }
                } else {
                    out.append(c)
                }
            }
            return .string(out)
        case "boolean": return .bool(boolean(values[0]))
        case "not": return .bool(!boolean(values[0]))
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "lang":
            let wanted = text(0).lowercased()
            var n = context
            while true {
                if let a = document[n].attributes.first(where: { document[$0].name == "xml:lang" }) {
                    let lang = document[a].value.lowercased()
                    return .bool(lang == wanted || lang.hasPrefix(wanted + "-"))
                }
                if n == 0 { return .bool(false) }
                n = document[n].parent
            }
        case "number":
            return .number(values.isEmpty ? XPathEvaluator.number(document.stringValue(context, budget: &budget)) : number(values[0]))
        case "sum":
            guard case .nodes(let nodes) = values[0] else { throw Failure(why: "sum() takes a node-set") }
            var total = 0.0
            for n in nodes { total += XPathEvaluator.number(document.stringValue(n, budget: &budget)) }
            return .number(total)
        case "floor": return .number(number(values[0]).rounded(.down))
        case "ceiling": return .number(number(values[0]).rounded(.up))
        case "round": return .number(number(values[0]).xpathRounded)
        default: throw Failure(why: "unknown function \(name)()")
        }
    }
}

extension Double {
    /// XPath's round(): the nearest integer, halves towards positive infinity.
    var xpathRounded: Double {
        if isNaN || isInfinite { return self }
        return (self + 0.5).rounded(.down)
    }
}
