/// Handlebars' syntax as handlebars.java 4 reads it: mustaches, triple mustaches, comments,
/// `~` whitespace control, blocks with `else` / `else if`, sub-expressions, hash arguments and
/// literals. Parsed once when the mapping is read; a helper this server lacks is refused then.
struct StubTemplateParser {
    /// Deepest nesting of blocks and sub-expressions a template may have.
    static let maxDepth = 40

    private enum End { case end, close(String), otherwise(TemplateCall?) }

    private let bytes: [UInt8]
    private let pointer: String
    private var pos = 0
    /// Set by a closing `~}}`: the next text loses its leading whitespace.
    private var stripNext = false

    init(_ text: String, at pointer: String) {
        bytes = Array(text.utf8)
        self.pointer = pointer
    }

    static func parse(_ text: String, at pointer: String) throws(StubProblem) -> [TemplateNode] {
        var parser = StubTemplateParser(text, at: pointer)
        let (nodes, end) = try parser.nodes(depth: 0)
        switch end {
        case .end: return nodes
        case .close(let name): throw parser.fail("{{/\(name)}} closes no block")
        case .otherwise: throw parser.fail("{{else}} outside a block")
        }
    }

    private func fail(_ why: String) -> StubProblem { StubProblem(pointer, "template: \(why)") }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    private mutating func nodes(depth: Int) throws(StubProblem) -> ([TemplateNode], End) {
        guard depth <= StubTemplateParser.maxDepth else { throw fail("blocks nest deeper than \(StubTemplateParser.maxDepth)") }
        var nodes: [TemplateNode] = []
        func addText(_ slice: ArraySlice<UInt8>, stripTrailing: Bool) {
            var s = slice
            if stripNext { while let f = s.first, StubTemplateParser.isSpace(f) { s = s.dropFirst() }; stripNext = false }
            if stripTrailing { while let l = s.last, StubTemplateParser.isSpace(l) { s = s.dropLast() } }
            if !s.isEmpty {
                let text = String(decoding: s, as: UTF8.self)
                if case .text(let before)? = nodes.last { nodes[nodes.count - 1] = .text(before + text) } else { nodes.append(.text(text)) }
            }
        }
        while true {
            guard let open = find([0x7B, 0x7B], from: pos) else {
                addText(bytes[pos...], stripTrailing: false)
                pos = bytes.count
                return (nodes, .end)
            }
            // `\{{` is text: the braces are written as they are.
            if open > pos, bytes[open - 1] == 0x5C {
                addText(bytes[pos..<(open - 1)], stripTrailing: false)
                addText([0x7B, 0x7B][...], stripTrailing: false)
                pos = open + 2
                continue
            }
            var p = open + 2
            let stripLeft = p < bytes.count && bytes[p] == 0x7E
            if stripLeft { p += 1 }
            addText(bytes[pos..<open], stripTrailing: stripLeft)
            guard p < bytes.count else { throw fail("\"{{\" is not closed by \"}}\"") }
            // Comments: `{{!-- … --}}` may hold `}}`; `{{! … }}` may not.
            if bytes[p] == 0x21 {
                let long = bytes[p...].starts(with: Array("!--".utf8))
                guard let close = find(Array((long ? "--" : "") .utf8) + [0x7D, 0x7D], from: p + (long ? 3 : 1)) else {
                    throw fail("a comment \"{{!\" is not closed")
                }
                let closeEnd = close + (long ? 4 : 2)
                stripNext = close > 0 && bytes[close - 1] == 0x7E
                pos = closeEnd
                continue
            }
            let triple = bytes[p] == 0x7B
            if triple { p += 1 }
            let closer: [UInt8] = triple ? [0x7D, 0x7D, 0x7D] : [0x7D, 0x7D]
            guard let close = closeOf(from: p, closer) else { throw fail("\"{{\" is not closed by \"\(String(decoding: closer, as: UTF8.self))\"") }
            // handlebars.java lexes `}}}` as one token, the triple mustache's closer: after `{{x` it
            // is a syntax error (WireMock answers 500), not `}}` and a `}` of text.
            if !triple, close + 2 < bytes.count, bytes[close + 2] == 0x7D {
                throw fail("found '}}}', expected '}}' (a \"}\" right after \"{{…}}\" needs a space or {{{…}}})")
            }
            var end = close
            if end > p && bytes[end - 1] == 0x7E { end -= 1; stripNext = true } else { stripNext = false }
            pos = close + closer.count
            var inner = bytes[p..<end]
            while let f = inner.first, StubTemplateParser.isSpace(f) { inner = inner.dropFirst() }
            while let l = inner.last, StubTemplateParser.isSpace(l) { inner = inner.dropLast() }
            if triple {
                nodes.append(.mustache(try call(String(decoding: inner, as: UTF8.self), depth: depth), escaped: false))
                continue
            }
            guard let first = inner.first else { throw fail("an empty {{}}") }
            let rest = String(decoding: inner.dropFirst(), as: UTF8.self).trimmingASCIIWhitespace()
            let whole = String(decoding: inner, as: UTF8.self)
            switch first {
            case UInt8(ascii: "&"):
                nodes.append(.mustache(try call(rest, depth: depth), escaped: false))
            case UInt8(ascii: "#"):
                if rest.hasPrefix(">") || rest.hasPrefix("*") { throw fail("partial blocks and decorators are not supported") }
                let head = try call(rest, depth: depth)
                let (body, inverse) = try blockBody(opening: head, depth: depth + 1)
                nodes.append(.block(head, body: body, inverse: inverse))
            case UInt8(ascii: "^") where rest.isEmpty:
                return (nodes, .otherwise(nil))
            case UInt8(ascii: "^"):
                // `{{^x}}…{{/x}}`: written when x is falsy.
                let head = try call(rest, depth: depth)
                let (body, inverse) = try blockBody(opening: head, depth: depth + 1)
                nodes.append(.block(TemplateCall(head: .path(TemplatePath(up: 0, data: false, segments: [], source: "this")), params: [head.head], hash: [], helper: "unless"),
                                    body: body, inverse: inverse))
            case UInt8(ascii: "/"):
                return (nodes, .close(rest))
            case UInt8(ascii: ">"):
                throw fail("partials ({{> \(rest)}}) are not supported: WireMock registers none")
            default:
                if whole == "else" { return (nodes, .otherwise(nil)) }
                if whole.hasPrefix("else ") || whole.hasPrefix("else\t") || whole.hasPrefix("else\n") {
                    return (nodes, .otherwise(try call(String(whole.dropFirst(5)), depth: depth)))
                }
                nodes.append(.mustache(try call(whole, depth: depth), escaped: true))
            }
        }
    }

    /// A block's body and its `else` part, up to the `{{/name}}` that closes it.
    private mutating func blockBody(opening: TemplateCall, depth: Int) throws(StubProblem) -> ([TemplateNode], [TemplateNode]?) {
        let name = opening.helper ?? { if case .path(let p) = opening.head { return p.source } else { return "" } }()
        let (body, end) = try nodes(depth: depth)
        switch end {
        case .end: throw fail("{{#\(name)}} is not closed by {{/\(name)}}")
        case .close(let closing):
            guard closing == name else { throw fail("{{#\(name)}} is closed by {{/\(closing)}}") }
            return (body, nil)
        case .otherwise(nil):
            let (inverse, end2) = try nodes(depth: depth)
            guard case .close(let closing) = end2, closing == name else { throw fail("{{#\(name)}}…{{else}} is not closed by {{/\(name)}}") }
            return (body, inverse)
        case .otherwise(let chained?):
            // `{{else if b}}…`: the rest is one block of its own, closed by the outer closer.
            let renamed = TemplateCall(head: chained.head, params: chained.params, hash: chained.hash, helper: chained.helper)
            let (inner, innerInverse) = try blockBody(opening: TemplateCall(head: .path(TemplatePath(up: 0, data: false, segments: [name], source: name)),
                                                                           params: [], hash: [], helper: name), depth: depth + 1)
            return (body, [.block(renamed, body: inner, inverse: innerInverse)])
        }
    }

    /// Where the `}}` that closes a mustache starts, quotes skipped.
    private func closeOf(from start: Int, _ closer: [UInt8]) -> Int? {
        var i = start, quote: UInt8?
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == 0x5C { i += 2; continue }
                if b == q { quote = nil }
            } else if b == 0x27 || b == 0x22 {
                quote = b
            } else if b == 0x7D, bytes[i...].starts(with: closer) {
                return i
            }
            i += 1
        }
        return nil
    }

    // MARK: expressions

    private func call(_ text: String, depth: Int) throws(StubProblem) -> TemplateCall {
        guard depth <= StubTemplateParser.maxDepth else { throw fail("sub-expressions nest deeper than \(StubTemplateParser.maxDepth)") }
        var lexer = ExprLexer(Array(text.utf8))
        let call = try callBody(&lexer, text: text, depth: depth, inParens: false)
        return call
    }

    private func callBody(_ lexer: inout ExprLexer, text: String, depth: Int, inParens: Bool) throws(StubProblem) -> TemplateCall {
        guard depth <= StubTemplateParser.maxDepth else { throw fail("sub-expressions nest deeper than \(StubTemplateParser.maxDepth)") }
        var items: [(key: String?, value: TemplateExpr)] = []
        var blockParams: [String] = []
        while true {
            lexer.skipSpace()
            guard let b = lexer.peek else {
                if inParens { throw fail("{{\(text)}}: \"(\" is not closed") }
                break
            }
            if b == 0x29 {
                guard inParens else { throw fail("{{\(text)}}: \")\" closes nothing") }
                lexer.pos += 1
                break
            }
            if b == 0x61, lexer.bytes[lexer.pos...].starts(with: Array("as |".utf8)) || lexer.bytes[lexer.pos...].starts(with: Array("as|".utf8)) {
                guard !inParens, let names = lexer.blockParams() else { throw fail("{{\(text)}}: \"as |…|\" is not closed") }
                blockParams = names
                continue
            }
            var key: String?
            if let k = lexer.hashKey() { key = k }
            lexer.skipSpace()
            guard let v = lexer.peek else { throw fail("{{\(text)}}: \(key ?? "")= has no value") }
            let value: TemplateExpr
            if v == 0x28 {
                lexer.pos += 1
                value = .sub(try callBody(&lexer, text: text, depth: depth + 1, inParens: true))
            } else if v == 0x27 || v == 0x22 {
                guard let s = lexer.quoted() else { throw fail("{{\(text)}}: a quote is not closed") }
                value = .string(s)
            } else {
                let word = lexer.word()
                guard !word.isEmpty else { throw fail("{{\(text)}}: unexpected \"\(String(UnicodeScalar(v)))\"") }
                value = try literal(word, text: text)
            }
            items.append((key, value))
        }
        guard let first = items.first, first.key == nil else { throw fail("{{\(text)}}: empty expression") }
        var params: [TemplateExpr] = [], hash: [(key: String, value: TemplateExpr)] = []
        for item in items.dropFirst() {
            if let k = item.key { hash.append((k, item.value)) } else {
                guard hash.isEmpty else { throw fail("{{\(text)}}: a parameter after key=value") }
                params.append(item.value)
            }
        }
        var helper: String?
        if case .path(let path) = first.value, path.up == 0, !path.data, path.segments.count == 1, path.source == path.segments[0] {
            let name = path.segments[0]
            if let why = StubTemplateHelpers.refused[name] { throw fail("{{\(text)}}: the helper \(name) is not supported: \(why)") }
            if StubTemplateHelpers.names.contains(name) { helper = name }
        }
        if helper == nil && (!params.isEmpty || !hash.isEmpty) {
            throw fail("{{\(text)}}: unknown helper \"\(pathSource(first.value))\" (docs/stubs.md lists the supported helpers)")
        }
        return TemplateCall(head: first.value, params: params, hash: hash, helper: helper, blockParams: blockParams)
    }

    private func pathSource(_ e: TemplateExpr) -> String { if case .path(let p) = e { return p.source } else { return "" } }

    private func literal(_ word: String, text: String) throws(StubProblem) -> TemplateExpr {
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null", "undefined": return .null
        default: break
        }
        if let first = word.utf8.first, first == 0x2D || (first >= 0x30 && first <= 0x39) {
            if let i = Int(word) { return .int(i) }
            if word.contains("."), let d = Double(word) { return .double(d) }
        }
        return .path(try path(word, text: text))
    }

    private func path(_ word: String, text: String) throws(StubProblem) -> TemplatePath {
        var rest = Substring(word)
        var data = false
        if rest.hasPrefix("@") { data = true; rest = rest.dropFirst() }
        var up = 0
        while rest.hasPrefix("../") { up += 1; rest = rest.dropFirst(3) }
        if rest == ".." { up += 1; rest = "" }
        var segments: [String] = []
        var current = "", bracket = false
        for c in rest {
            if bracket {
                if c == "]" { bracket = false } else { current.append(c) }
            } else if c == "[" && current.isEmpty {
                bracket = true
            } else if c == "." || c == "/" {
                segments.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if bracket { throw fail("{{\(text)}}: \"[\" is not closed in \(word)") }
        segments.append(current)
        if segments.first == "this" || segments.first == "" && segments.count == 1 { segments.removeFirst() }
        if segments.contains(where: \.isEmpty) { throw fail("{{\(text)}}: \(word) is not a path") }
        return TemplatePath(up: up, data: data, segments: segments, source: word)
    }
}

/// The words of one mustache.
private struct ExprLexer {
    let bytes: [UInt8]
    var pos = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    mutating func skipSpace() {
        while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x09 || bytes[pos] == 0x0A || bytes[pos] == 0x0D { pos += 1 }
    }

    /// `name=` (not `==`): the key, the lexer moved past `=`.
    mutating func hashKey() -> String? {
        var i = pos
        while i < bytes.count {
            let b = bytes[i]
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D || b == 0x40 || b == 0x2E {
                i += 1
            } else { break }
        }
        guard i > pos, i < bytes.count, bytes[i] == 0x3D else { return nil }
        let key = String(decoding: bytes[pos..<i], as: UTF8.self)
        pos = i + 1
        return key
    }

    /// `as |a b|`: the names.
    mutating func blockParams() -> [String]? {
        guard let bar = bytes[pos...].firstIndex(of: 0x7C), let close = bytes[(bar + 1)...].firstIndex(of: 0x7C) else { return nil }
        let names = String(decoding: bytes[(bar + 1)..<close], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        pos = close + 1
        return names.isEmpty ? nil : names
    }

    /// A quoted string, `\` escaping the quote.
    mutating func quoted() -> String? {
        let q = bytes[pos]
        var out: [UInt8] = []
        var i = pos + 1
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x5C, i + 1 < bytes.count, bytes[i + 1] == q { out.append(q); i += 2; continue }
            if b == q { pos = i + 1; return String(decoding: out, as: UTF8.self) }
            out.append(b)
            i += 1
        }
        return nil
    }

    /// A path or number: up to a space or parenthesis, `[…]` taken whole.
    mutating func word() -> String {
        let start = pos
        var bracket = false
        while pos < bytes.count {
            let b = bytes[pos]
            if bracket { if b == 0x5D { bracket = false }; pos += 1; continue }
            if b == 0x5B { bracket = true; pos += 1; continue }
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x28 || b == 0x29 { break }
            pos += 1
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }
}
