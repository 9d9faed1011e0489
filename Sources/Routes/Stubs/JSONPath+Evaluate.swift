import HTTPServer

/// Jayway's configuration options that change an evaluation.
struct JSONPathOptions: Sendable {
    /// `DEFAULT_PATH_LEAF_TO_NULL` (WireMock's `jsonPath` template helper): a missing last member is null.
    var leafToNull = false
    /// `REQUIRE_PROPERTIES` (a filter's existence test): any missing member fails the path.
    var requireProperties = false
}

extension JSONPath {
    /// What `JsonPath.read` returns: the value of a definite path (`notFound` when none), or
    /// the list of what an indefinite one selects. One budget step per value looked at.
    func read(_ document: JSONValue, options: JSONPathOptions = JSONPathOptions(), budget: inout StubBudget) throws(JSONPathFailure) -> JSONValue {
        try read(document, root: document, options: options, budget: &budget)
    }

    func read(_ model: JSONValue, root: JSONValue, options: JSONPathOptions, budget: inout StubBudget) throws(JSONPathFailure) -> JSONValue {
        var walk = JSONPathWalk(path: self, root: root, options: options)
        var out: [JSONValue] = []
        if tokens.isEmpty { out.append(model) } else { try walk.token(0, model, &out, &budget, arrayIndex: nil) }
        if isDefinite {
            guard let last = out.last else { throw .notFound }
            return last
        }
        return .array(out)
    }

    /// The result's numbers are Java Doubles (the path ends in an aggregate function).
    var givesDoubles: Bool {
        if case .function(let f, _)? = tokens.last { return f.givesDouble }
        return false
    }

    /// The result is a key set (`keys()`): a Collection to WireMock, but not a List.
    var givesKeySet: Bool {
        if case .function(.keys, _)? = tokens.last { return true }
        return false
    }
}

/// One evaluation of one path: Jayway's token-by-token walk (`PathToken.evaluate`).
struct JSONPathWalk {
    let path: JSONPath
    let root: JSONValue
    let options: JSONPathOptions

    private var last: Int { path.tokens.count - 1 }

    private func spend(_ budget: inout StubBudget, _ n: Int = 1) throws(JSONPathFailure) {
        if !budget.spend(n) { throw .overBudget }
    }

    /// Passes `value` to the token after `i`, or keeps it when `i` is the last.
    private mutating func emit(_ i: Int, _ value: JSONValue, _ out: inout [JSONValue], _ budget: inout StubBudget) throws(JSONPathFailure) {
        if i == last { out.append(value) } else { try token(i + 1, value, &out, &budget, arrayIndex: nil) }
    }

    mutating func token(_ i: Int, _ model: JSONValue, _ out: inout [JSONValue], _ budget: inout StubBudget, arrayIndex: Int?) throws(JSONPathFailure) {
        try spend(&budget)
        switch path.tokens[i] {
        case .properties(let names):
            guard case .object(let members) = model else {
                if path.upstreamDefinite(i) { throw .notFound }
                return
            }
            if names.count == 1 {
                try property(i, names[0], members, &out, &budget, arrayIndex: arrayIndex, tokenDefinite: true)
            } else if i == last {
                var merged: [(key: String, value: JSONValue)] = []
                for name in names {
                    if let v = JSONPathWalk.member(members, name) { merged.append((name, v)) } else if options.leafToNull { merged.append((name, .null)) } else if options.requireProperties { throw .notFound }
                }
                out.append(.object(merged))
            } else {
                for name in names { try property(i, name, members, &out, &budget, arrayIndex: arrayIndex, tokenDefinite: false) }
            }
        case .indexes(let indexes):
            guard case .array(let items) = model else {
                if path.upstreamDefinite(i) { throw .notFound }
                return
            }
            for index in indexes { try element(i, index, items, &out, &budget) }
        case .slice(let from, let to):
            guard case .array(let items) = model else {
                if path.upstreamDefinite(i) { throw .notFound }
                return
            }
            let n = items.count
            guard n > 0 else { return }
            try spend(&budget, n)
            switch (from, to) {
            case (let f?, nil):
                let start = Swift.max(0, f < 0 ? n + f : f)
                if start < n { for k in start..<n { try element(i, k, items, &out, &budget) } }
            case (let f?, let t?):
                // As Jayway: a negative start counts from the end per index, a negative end selects nothing.
                let end = Swift.min(n, t)
                if f < end { for k in f..<end { try element(i, k, items, &out, &budget) } }
            case (nil, let t?):
                let end = Swift.min(n, t < 0 ? n + t : t)
                if end > 0 { for k in 0..<end { try element(i, k, items, &out, &budget) } }
            case (nil, nil): return
            }
        case .wildcard:
            switch model {
            case .object(let members):
                try spend(&budget, members.count)
                for m in members { try emitProperty(i, m.value, &out, &budget, arrayIndex: arrayIndex) }
            case .array(let items):
                try spend(&budget, items.count)
                for k in items.indices { try element(i, k, items, &out, &budget) }
            default: return
            }
        case .scan:
            try walk(i + 1, model, &out, &budget)
        case .filter(let predicate):
            switch model {
            case .object:
                if try accept(predicate, model, &budget) { try emit(i, model, &out, &budget) }
            case .array(let items):
                for k in items.indices where try accept(predicate, items[k], &budget) { try element(i, k, items, &out, &budget) }
            default:
                if path.upstreamDefinite(i) { throw .invalid("Filter can not be applied to primitives") }
            }
        case .function(let function, let parameters):
            var arguments: [JSONValue] = []
            for parameter in parameters {
                switch parameter {
                case .json(let value): arguments.append(value)
                case .path(let p): arguments.append(try p.read(root, root: root, options: options, budget: &budget))
                }
            }
            var lengthOf: Int?
            if function == .length || function == .size, case .path(let p)? = parameters.first, !p.isFunctionPath {
                // Jayway's length(path) counts what path[*] selects from the model.
                let counted = JSONPath(source: p.source, tokens: p.tokens + [.wildcard], isRootPath: p.isRootPath)
                let value = try counted.read(model, root: model, options: options, budget: &budget)
                if case .array(let items) = value, !p.isDefinite { lengthOf = items.count }
            }
            try emit(i, try function.invoke(model, arguments, lengthOf: lengthOf), &out, &budget)
        case .unknownFunction(let name):
            // PathFunctionFactory's InvalidPathException, thrown before the arguments are read.
            throw .invalid("Function with name: \(name) does not exist.")
        }
    }

    private static func member(_ members: [(key: String, value: JSONValue)], _ name: String) -> JSONValue? {
        members.last(where: { $0.key == name })?.value
    }

    /// `handleObjectProperty` for one name.
    private mutating func property(_ i: Int, _ name: String, _ members: [(key: String, value: JSONValue)], _ out: inout [JSONValue],
                                   _ budget: inout StubBudget, arrayIndex: Int?, tokenDefinite: Bool) throws(JSONPathFailure) {
        try spend(&budget, members.count)
        guard let value = JSONPathWalk.member(members, name) else {
            if i == last {
                if options.leafToNull { return try emitProperty(i, .null, &out, &budget, arrayIndex: arrayIndex) }
                if options.requireProperties { throw .notFound }
                return
            }
            if !(path.upstreamDefinite(i) && tokenDefinite) && !options.requireProperties { return }
            throw .notFound
        }
        try emitProperty(i, value, &out, &budget, arrayIndex: arrayIndex)
    }

    /// A member's value onwards; a last one reached from a scan's array element is kept only
    /// when the token before it is that element's index (Jayway's `upstreamArrayIndex`).
    private mutating func emitProperty(_ i: Int, _ value: JSONValue, _ out: inout [JSONValue], _ budget: inout StubBudget, arrayIndex: Int?) throws(JSONPathFailure) {
        if i == last, let k = arrayIndex {
            guard i >= 1, case .indexes(let previous) = path.tokens[i - 1], previous == [k] else { return }
        }
        try emit(i, value, &out, &budget)
    }

    private mutating func element(_ i: Int, _ index: Int, _ items: [JSONValue], _ out: inout [JSONValue], _ budget: inout StubBudget) throws(JSONPathFailure) {
        let at = index < 0 ? items.count + index : index
        guard items.indices.contains(at) else { return }
        try emit(i, items[at], &out, &budget)
    }

    /// `ScanPathToken.walk`: token `t` (the one after `..`) at every depth where it may apply.
    private mutating func walk(_ t: Int, _ model: JSONValue, _ out: inout [JSONValue], _ budget: inout StubBudget) throws(JSONPathFailure) {
        try spend(&budget)
        switch model {
        case .object(let members):
            if try scanMatches(t, model, &budget) { try token(t, model, &out, &budget, arrayIndex: nil) }
            for m in members { try walk(t, m.value, &out, &budget) }
        case .array(let items):
            if try scanMatches(t, model, &budget) {
                if t == last {
                    try token(t, model, &out, &budget, arrayIndex: nil)
                } else {
                    // Jayway hands each element to the token after t (its quirk, kept).
                    for k in items.indices { try token(t + 1, items[k], &out, &budget, arrayIndex: k) }
                }
            }
            for item in items { try walk(t, item, &out, &budget) }
        default: return
        }
    }

    private mutating func scanMatches(_ t: Int, _ model: JSONValue, _ budget: inout StubBudget) throws(JSONPathFailure) -> Bool {
        switch path.tokens[t] {
        case .properties(let names):
            guard case .object(let members) = model else { return false }
            if !path.tokenDefinite[t] { return true }
            if t == last && options.leafToNull { return true }
            return names.allSatisfy { name in members.contains { $0.key == name } }
        case .indexes, .slice:
            if case .array = model { return true }
            return false
        case .wildcard: return true
        case .filter(let predicate): return try accept(predicate, model, &budget)
        case .scan, .function, .unknownFunction: return false
        }
    }

    /// `PredicatePathToken.accept`: an InvalidPathException inside makes the item fail.
    private mutating func accept(_ predicate: JSONPathPredicate, _ item: JSONValue, _ budget: inout StubBudget) throws(JSONPathFailure) -> Bool {
        do {
            return try JSONPathFilterEvaluation(item: item, root: root, options: options).apply(predicate, &budget)
        } catch {
            if case .invalid = error { return false }
            throw error
        }
    }
}

extension JSONPath {
    /// The path ends in a function (Jayway's `isFunctionPath`).
    var isFunctionPath: Bool { tokens.last.map(JSONPath.isFunction) ?? false }

    /// A function token, known to Jayway 2.7 or not (both are Jayway's `FunctionPathToken`).
    static func isFunction(_ token: Token) -> Bool {
        switch token {
        case .function, .unknownFunction: return true
        default: return false
        }
    }
}
