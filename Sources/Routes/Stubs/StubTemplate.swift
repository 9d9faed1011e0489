#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// A response template (`"transformers": ["response-template"]`): WireMock's Handlebars subset,
/// parsed when the mapping is read so an unsupported helper is refused then, not when served.
struct StubTemplate: Sendable {
    enum Part: Sendable {
        case text(String)
        /// `{{…}}` (HTML-escaped, as Handlebars does) or `{{{…}}}` (as it is).
        case value(Expression, escaped: Bool)
    }

    enum Expression: Sendable {
        /// `request.path`, `request.query.x.[1]`…: the words after `request`.
        case request([String])
        case jsonPath(source: [String], path: JSONPath)
        case randomValue(length: Int, type: String, uppercase: Bool)
        case now(format: String?, offsetSeconds: Double, offsetMonths: Int)
        /// `xPath` / `soapXPath` (XML/StubTemplate+XPath.swift).
        case xPath(XPathHelper)
    }

    let parts: [Part]
    /// A template with no `{{`: rendering returns the text as it is.
    var isPlain: Bool { parts.allSatisfy { if case .text = $0 { return true } else { return false } } }

    init(_ text: String, at pointer: String) throws(StubProblem) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
            let triple = rest[open.upperBound...].hasPrefix("{")
            let start = triple ? rest.index(after: open.upperBound) : open.upperBound
            let closer = triple ? "}}}" : "}}"
            guard let close = rest[start...].firstRange(of: closer) else {
                throw StubProblem(pointer, "template: \"{{\" is not closed by \"\(closer)\"")
            }
            let inside = String(rest[start..<close.lowerBound]).trimmingASCIIWhitespace()
            parts.append(.value(try StubTemplate.expression(inside, at: pointer), escaped: !triple))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
    }

    private static func expression(_ text: String, at pointer: String) throws(StubProblem) -> Expression {
        func fail(_ why: String) -> StubProblem {
            StubProblem(pointer, "template {{\(text)}}: \(why) (supported: request.url, request.path, request.path.[n], request.pathSegments.[n], request.baseUrl, request.requestLine.host/port/scheme, request.method, request.query.x, request.headers.x, request.cookies.x, request.body, jsonPath request.body '$.a', xPath request.body '/a', soapXPath, randomValue, now)")
        }
        if let first = text.first, "#/^!>&".contains(first) || text == "else" { throw fail("block helpers, partials and comments are not supported") }
        let words = try StubTemplate.words(text, fail)
        guard let head = words.first else { throw fail("empty expression") }
        var named: [String: String] = [:]
        var positional: [String] = []
        for word in words.dropFirst() {
            if let eq = word.firstIndex(of: "="), !word.hasPrefix("'") {
                named[String(word[..<eq])] = StubTemplate.unquoted(String(word[word.index(after: eq)...]))
            } else {
                positional.append(word)
            }
        }
        switch head {
        case "jsonPath":
            guard positional.count == 2, named.isEmpty, let source = requestPath(positional[0]), source == ["body"] else {
                throw fail("jsonPath takes request.body and a quoted JSONPath")
            }
            return .jsonPath(source: source, path: try JSONPath(unquoted(positional[1]), at: pointer))
        case "xPath", "soapXPath":
            return .xPath(try XPathHelper.parse(head, positional: positional, named: named, unquoted: unquoted, fail: fail))
        case "randomValue":
            guard positional.isEmpty, Set(named.keys).isSubset(of: ["length", "type", "uppercase"]) else { throw fail("randomValue takes length=, type= and uppercase=") }
            let type = named["type"] ?? "ALPHANUMERIC"
            let types = ["ALPHANUMERIC", "ALPHABETIC", "NUMERIC", "ALPHANUMERIC_AND_SYMBOLS", "HEXADECIMAL", "UUID"]
            guard types.contains(type) else { throw fail("randomValue type must be one of \(types.joined(separator: ", "))") }
            let length = Int(named["length"] ?? "36") ?? -1
            guard (1...10_000).contains(length) || type == "UUID" else { throw fail("randomValue length must be 1 to 10000") }
            return .randomValue(length: length, type: type, uppercase: named["uppercase"] == "true")
        case "now":
            guard positional.isEmpty, Set(named.keys).isSubset(of: ["format", "offset", "timezone"]) else { throw fail("now takes format=, offset= and timezone='UTC'") }
            if let zone = named["timezone"], zone != "UTC", zone != "GMT" { throw fail("only timezone='UTC' is supported") }
            var seconds = 0.0, months = 0
            if let offset = named["offset"] {
                let bits = offset.split(separator: " ")
                guard bits.count == 2, let amount = Int(bits[0]) else { throw fail("offset is a number and a unit, such as '3 days' or '-1 hours'") }
                switch bits[1].lowercased().hasSuffix("s") ? String(bits[1].lowercased().dropLast()) : bits[1].lowercased() {
                case "second": seconds = Double(amount)
                case "minute": seconds = Double(amount) * 60
                case "hour": seconds = Double(amount) * 3600
                case "day": seconds = Double(amount) * 86400
                case "month": months = amount
                case "year": months = amount * 12
                default: throw fail("offset units are seconds, minutes, hours, days, months, years")
                }
            }
            if let format = named["format"], format != "epoch", format != "unix" {
                if let bad = StubDateFormat.unsupported(format) { throw fail("format letter \(bad) is not supported (y M d H m s S and quoted text are)") }
            }
            return .now(format: named["format"], offsetSeconds: seconds, offsetMonths: months)
        default:
            guard positional.isEmpty, named.isEmpty, let path = requestPath(head) else { throw fail("unknown helper or value \"\(head)\"") }
            let simple = ["url", "path", "method", "body", "baseUrl"]
            guard path.count >= 1 else { throw fail("name a part of the request") }
            if simple.contains(path[0]) && path.count == 1 { return .request(path) }
            // WireMock 2's `request.path.[n]` (`request.path.n`): a path segment.
            if path[0] == "path" && path.count == 2, Int(path[1]) != nil { return .request(["pathSegments", path[1]]) }
            if path[0] == "requestLine" && path.count == 2 && ["method", "path", "scheme", "host", "port", "baseUrl"].contains(path[1]) {
                return .request(path[1] == "path" || path[1] == "method" || path[1] == "baseUrl" ? [path[1]] : path)
            }
            if ["pathSegments", "query", "headers", "cookies"].contains(path[0]) && (2...3).contains(path.count) { return .request(path) }
            throw fail("\(head) is not supported")
        }
    }

    /// `request.query.x.[1]` → `["query", "x", "1"]`; nil when it does not start with `request.`.
    private static func requestPath(_ word: String) -> [String]? {
        let bits = word.split(separator: ".", omittingEmptySubsequences: false).map { bit -> String in
            bit.hasPrefix("[") && bit.hasSuffix("]") ? String(bit.dropFirst().dropLast()) : String(bit)
        }
        guard bits.first == "request", bits.count >= 2, !bits.contains(where: \.isEmpty) else { return nil }
        return Array(bits.dropFirst())
    }

    private static func unquoted(_ word: String) -> String {
        guard word.count >= 2, let f = word.first, f == word.last, f == "'" || f == "\"" else { return word }
        return String(word.dropFirst().dropLast())
    }

    private static func words(_ text: String, _ fail: (String) -> StubProblem) throws(StubProblem) -> [String] {
        var words: [String] = [], current = "", quote: Character?
        for c in text {
            if let q = quote {
                current.append(c)
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
                current.append(c)
            } else if c == " " || c == "\t" || c == "\n" {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(c)
            }
        }
        if quote != nil { throw fail("a quote is not closed") }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The bytes for one request, stopped at `limit` bytes while rendering (a template of
    /// many `{{{request.body}}}` never builds more than the cap).
    func render(_ scope: inout StubRenderScope, limit: Int) throws(StubRenderFailure) -> [UInt8] {
        var out = StubRenderBuffer(limit: limit)
        for part in parts {
            switch part {
            case .text(let text): out.append(text)
            case .value(let expression, let escaped): StubTemplate.evaluate(expression, &scope, escaped: escaped, into: &out)
            }
            if let failure = out.failure { throw failure }
        }
        return out.bytes
    }

    private static func evaluate(_ expression: Expression, _ scope: inout StubRenderScope, escaped: Bool, into out: inout StubRenderBuffer) {
        switch expression {
        case .request(let path):
            out.append(requestValue(path, &scope), escaped: escaped)
        case .jsonPath(_, let path):
            guard let document = scope.document else { return }
            let found = path.evaluate(document, budget: &scope.budget)
            if scope.budget.exhausted { return out.fail(.overBudget("the template's jsonPath \(path.source)")) }
            let value = path.isDefinite ? found.first : .array(found)
            guard let value else { return }
            switch value {
            case .string(let s): out.append(s, escaped: escaped)
            case .null: break
            case .number, .bool: out.append(value.stubText, escaped: escaped)
            default: JacksonPretty.write(value, into: &out, escaped: escaped)
            }
        case .xPath(let helper):
            helper.render(scope.request.bodyText, budget: &scope.budget, escaped: escaped, into: &out)
        case .randomValue(let length, let type, let uppercase):
            StubRandom.append(length: length, type: type, uppercase: uppercase, escaped: escaped, into: &out)
        case .now(let format, let seconds, let months):
            out.append(StubDateFormat.format(StubDateFormat.offset(scope.now, seconds: seconds, months: months), format), escaped: escaped)
        }
    }

    private static func requestValue(_ path: [String], _ scope: inout StubRenderScope) -> String {
        let index = path.count == 3 ? Int(path[2]) ?? 0 : 0
        let request = scope.request
        switch path[0] {
        case "url": return request.url
        case "path": return FormDecoding.percentDecode(request.path, plusIsSpace: false)
        case "method": return request.method
        case "body": return request.bodyText
        // As WireMock builds it from the request it received: this server speaks plain HTTP.
        case "baseUrl": return "http://" + (request.headers["Host"] ?? "localhost")
        case "requestLine":
            let host = request.headers["Host"] ?? "localhost"
            switch path[1] {
            case "scheme": return "http"
            case "host": return HostField.name(host)
            default: return HostField.port(host).map(String.init) ?? ""
            }
        case "pathSegments":
            let segments = scope.pathSegments
            guard let i = Int(path[1]), segments.indices.contains(i) else { return "" }
            return segments[i]
        case "query":
            let values = scope.query.filter { $0.name == path[1] }.map(\.value)
            return values.indices.contains(index) ? values[index] : ""
        case "headers":
            let values = request.headers.values(path[1])
            return values.indices.contains(index) ? values[index] : ""
        case "cookies":
            let values = scope.cookies.filter { $0.0 == path[1] }.map(\.1)
            return values.indices.contains(index) ? values[index] : ""
        default: return ""
        }
    }
}
