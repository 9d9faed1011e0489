import HTTPServer
import LinearRegex

/// Walks a parsed template for one request into the capped buffer: paths are looked up as
/// handlebars.java looks them up (the context, then its parents, then the variables helpers
/// set), blocks and helpers as WireMock 2.35 registers them. Every node and loop turn spends a
/// step of the answer's budget, so no template can render for long.
struct StubTemplateRenderer {
    var scope: StubRenderScope
    var out: StubRenderBuffer
    /// The context stack: the model first, then each block's.
    var contexts: [TemplateValue]
    /// `@index`, `@key`… of the blocks around.
    var frames: [[(String, TemplateValue)]] = []
    /// Block parameters (`as |item key|`) of the blocks around.
    var locals: [[(String, TemplateValue)]] = []
    /// What `assign`, `regexExtract … 'name'`, `formData … 'name'` and `parseJson … 'name'` set.
    var variables: [String: TemplateValue] = [:]
    var failure: StubRenderFailure?
    /// Compiled once per answer: regular expressions and JSONPaths by their text, the last JSON parsed.
    var regexes: [String: RegexPattern] = [:]
    var jsonPaths: [String: JSONPath] = [:]
    var lastJSON: (text: String, value: JSONValue)?

    init(scope: StubRenderScope, limit: Int, parameters: TemplateValue) {
        self.scope = scope
        out = StubRenderBuffer(limit: limit)
        contexts = [.map([(key: "request", value: .lazy(.request)), (key: "parameters", value: parameters)], json: false)]
    }

    var stopped: Bool { failure != nil || out.failure != nil }

    mutating func fail(_ f: StubRenderFailure) { if failure == nil { failure = f } }

    /// Takes one step; false (and the failure set) once the budget is spent.
    mutating func step(_ n: Int = 1) -> Bool {
        if scope.budget.spend(n) { return true }
        fail(.overBudget("the response template"))
        return false
    }

    mutating func render(_ nodes: [TemplateNode]) {
        for node in nodes {
            guard !stopped, step() else { return }
            switch node {
            case .text(let text): out.append(text)
            case .mustache(let call, let escaped):
                let value = evaluate(call)
                write(value, escaped: escaped)
            case .block(let call, let body, let inverse):
                block(call, body: body, inverse: inverse ?? [])
            }
        }
    }

    mutating func write(_ value: TemplateValue, escaped: Bool) {
        switch value {
        case .null: return
        case .string(let s): out.append(s, escaped: escaped)
        case .lazy: out.append(materialize(value).javaText, escaped: escaped)
        default: out.append(value.javaText, escaped: escaped)
        }
    }

    /// `body` rendered on its own (for helpers that take their block's text), within what is left.
    mutating func capture(_ body: [TemplateNode], context: TemplateValue? = nil) -> String {
        var saved = StubRenderBuffer(limit: out.remaining)
        swap(&saved, &out)
        if let context { contexts.append(context) }
        render(body)
        if context != nil { contexts.removeLast() }
        swap(&saved, &out)
        if let f = saved.failure { fail(f) }
        return String(decoding: saved.bytes, as: UTF8.self)
    }

    // MARK: values

    mutating func evaluate(_ expr: TemplateExpr) -> TemplateValue {
        switch expr {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .path(let path): return resolve(path)
        case .sub(let call): return evaluate(call)
        }
    }

    /// A mustache's or sub-expression's value: its helper's answer, or the path's value.
    mutating func evaluate(_ call: TemplateCall) -> TemplateValue {
        guard let helper = call.helper else { return evaluate(call.head) }
        return self.helper(helper, call, body: nil, inverse: nil)
    }

    mutating func resolve(_ path: TemplatePath) -> TemplateValue {
        if path.data {
            guard let name = path.segments.first else { return .null }
            for frame in frames.reversed() {
                if let found = frame.first(where: { $0.0 == name }) { return walk(found.1, path.segments.dropFirst()) }
            }
            if name == "root", let root = contexts.first { return walk(root, path.segments.dropFirst()) }
            return .null
        }
        let base = contexts.count - 1 - path.up
        guard base >= 0 else { return .null }
        guard let first = path.segments.first else { return contexts[base] }
        if path.up == 0 {
            for frame in locals.reversed() {
                if let found = frame.first(where: { $0.0 == first }) { return walk(found.1, path.segments.dropFirst()) }
            }
        }
        // As handlebars.java: the context, then the contexts around it, then the variables.
        var i = base
        while i >= 0 {
            let found = child(contexts[i], first)
            if !found.isNull { return walk(found, path.segments.dropFirst()) }
            if path.up > 0 { break }
            i -= 1
        }
        if let v = variables[first] { return walk(v, path.segments.dropFirst()) }
        return .null
    }

    mutating func walk(_ value: TemplateValue, _ rest: ArraySlice<String>) -> TemplateValue {
        var current = value
        for key in rest {
            current = child(current, key)
            if current.isNull { return .null }
        }
        return current
    }

    /// `value.key`, as handlebars.java's resolvers read Java maps, lists and WireMock's model.
    mutating func child(_ value: TemplateValue, _ key: String) -> TemplateValue {
        switch value {
        case .map(let members, _):
            return members.first { $0.key == key }?.value ?? .null
        case .list(let items, let kind):
            if case .listOrSingle = kind {
                if key == "first" { return items.first ?? .null }
                if key == "last" { return items.last ?? .null }
            }
            guard let i = Int(key) else { return .null }
            // WireMock's ListOrSingle counts back from the last but one: [-1] is the one before the last.
            if case .listOrSingle = kind, i < 0 { let j = items.count - 1 + i; return items.indices.contains(j) ? items[j] : .null }
            return items.indices.contains(i) ? items[i] : .null
        case .lazy(let part):
            return lazyChild(part, key)
        case .xml(let node):
            return node.child(key)
        default:
            return .null
        }
    }

    private mutating func lazyChild(_ part: TemplateValue.Lazy, _ key: String) -> TemplateValue {
        let request = scope.request
        switch part {
        case .request, .requestLine:
            switch key {
            case "url": return .string(request.url)
            case "path":
                if part == .requestLine { return .string(scope.decodedPath) }
                return scope.pathValue
            case "pathSegments":
                return scope.pathValue
            case "method": return .string(request.method)
            case "query": return .lazy(.query)
            case "scheme": return .string("http")
            case "host": return .string(HostField.name(request.headers["Host"] ?? "localhost"))
            case "port": return .int(HostField.port(request.headers["Host"] ?? "").map { Int($0) } ?? 80)
            case "baseUrl":
                // As WireMock builds it: the port left out when it is the scheme's own.
                let host = HostField.name(request.headers["Host"] ?? "localhost")
                let port = HostField.port(request.headers["Host"] ?? "").map { Int($0) } ?? 80
                return .string("http://" + (host.contains(":") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)"))
            case "body" where part == .request: return .string(request.bodyText)
            case "headers" where part == .request: return .lazy(.headers)
            case "cookies" where part == .request: return .lazy(.cookies)
            case "requestLine" where part == .request: return .lazy(.requestLine)
            default: return .null
            }
        case .headers:
            let values = request.headers.values(key)
            return values.isEmpty ? .null : .list(values.map { .string($0) }, .listOrSingle)
        case .query:
            let values = scope.query.filter { $0.name == key }.map { TemplateValue.string($0.value) }
            return values.isEmpty ? .null : .list(values, .listOrSingle)
        case .cookies:
            let values = scope.cookies.filter { $0.0 == key }.map { TemplateValue.string($0.1) }
            return values.isEmpty ? .null : .list(values, .listOrSingle)
        }
    }

    /// A lazy part of the request as a whole map (for `size`, `each`, rendering).
    mutating func materialize(_ value: TemplateValue) -> TemplateValue {
        guard case .lazy(let part) = value else { return value }
        var names: [String] = []
        switch part {
        case .request: names = ["url", "path", "pathSegments", "method", "query", "scheme", "host", "port", "baseUrl", "body", "headers", "cookies", "requestLine"]
        case .requestLine: names = ["method", "scheme", "host", "port", "url", "path", "pathSegments", "query", "baseUrl"]
        case .headers:
            // Java's case-insensitive TreeMap: sorted by name, ignoring case.
            for (name, _) in scope.request.headers where !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
            names.sort { $0.lowercased() < $1.lowercased() }
        case .query: for p in scope.query where !names.contains(p.name) { names.append(p.name) }
        case .cookies: for c in scope.cookies where !names.contains(c.0) { names.append(c.0) }
        }
        return .map(names.map { (key: $0, value: lazyChild(part, $0)) }, json: false)
    }

    // MARK: blocks

    mutating func block(_ call: TemplateCall, body: [TemplateNode], inverse: [TemplateNode]) {
        guard let helper = call.helper else {
            // `{{#path}}`: a section, as Mustache's: each item of a list, the value as context, or the inverse.
            let value = materialize(evaluate(call.head))
            if value.isFalsy { return render(inverse) }
            if let items = value.items { return each(items.enumerated().map { (String($0.offset), $0.element) }, isList: true, body: body, inverse: inverse) }
            contexts.append(value)
            render(body)
            contexts.removeLast()
            return
        }
        let result = self.helper(helper, call, body: body, inverse: inverse)
        write(result, escaped: false)
    }

    mutating func each(_ entries: [(String, TemplateValue)], isList: Bool, body: [TemplateNode], inverse: [TemplateNode], names: [String] = []) {
        if entries.isEmpty { return render(inverse) }
        for (i, entry) in entries.enumerated() {
            guard !stopped, step() else { return }
            var frame: [(String, TemplateValue)] = [("index", .int(i)), ("first", .bool(i == 0)), ("last", .bool(i == entries.count - 1))]
            if !isList { frame.append(("key", .string(entry.0))) }
            frames.append(frame)
            contexts.append(entry.1)
            if !names.isEmpty {
                var local = [(names[0], entry.1)]
                if names.count > 1 { local.append((names[1], isList ? .int(i) : .string(entry.0))) }
                locals.append(local)
            }
            render(body)
            if !names.isEmpty { locals.removeLast() }
            contexts.removeLast()
            frames.removeLast()
        }
    }
}
