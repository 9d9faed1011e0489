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
            StubProblem(pointer, "template {{\(text)}}: \(why) (supported: request.url, request.path, request.pathSegments.[n], request.method, request.query.x, request.headers.x, request.cookies.x, request.body, jsonPath request.body '$.a', randomValue, now)")
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
            let simple = ["url", "path", "method", "body"]
            guard path.count >= 1 else { throw fail("name a part of the request") }
            if simple.contains(path[0]) && path.count == 1 { return .request(path) }
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

    /// The text for one request, with the mock's clock.
    func render(_ request: StubRequest, now: Date) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text): out += text
            case .value(let expression, let escaped):
                let value = StubTemplate.evaluate(expression, request, now: now)
                out += escaped ? StubTemplate.escapeHTML(value) : value
            }
        }
        return out
    }

    private static func evaluate(_ expression: Expression, _ request: StubRequest, now: Date) -> String {
        switch expression {
        case .request(let path):
            return requestValue(path, request)
        case .jsonPath(_, let path):
            guard let document = JSONValue.parse(request.body) else { return "" }
            let found = path.evaluate(document)
            let value = path.isDefinite ? found.first : .array(found)
            guard let value else { return "" }
            switch value {
            case .string(let s): return s
            case .null: return ""
            case .number, .bool: return value.stubText
            default: return JacksonPretty.text(value)
            }
        case .randomValue(let length, let type, let uppercase):
            let text = StubRandom.value(length: length, type: type)
            return uppercase ? text.uppercased() : text
        case .now(let format, let seconds, let months):
            return StubDateFormat.format(StubDateFormat.offset(now, seconds: seconds, months: months), format)
        }
    }

    private static func requestValue(_ path: [String], _ request: StubRequest) -> String {
        let index = path.count == 3 ? Int(path[2]) ?? 0 : 0
        switch path[0] {
        case "url": return request.url
        case "path": return FormDecoding.percentDecode(request.path, plusIsSpace: false)
        case "method": return request.method
        case "body": return request.bodyText
        case "pathSegments":
            let segments = request.path.split(separator: "/").map { FormDecoding.percentDecode($0, plusIsSpace: false) }
            guard let i = Int(path[1]), segments.indices.contains(i) else { return "" }
            return segments[i]
        case "query":
            let values = request.queryParameters.filter { $0.name == path[1] }.map(\.value)
            return values.indices.contains(index) ? values[index] : ""
        case "headers":
            let values = request.headers.values(path[1])
            return values.indices.contains(index) ? values[index] : ""
        case "cookies":
            let values = request.cookies.filter { $0.0 == path[1] }.map(\.1)
            return values.indices.contains(index) ? values[index] : ""
        default: return ""
        }
    }

    /// Handlebars' HTML escaping of `{{…}}`.
    static func escapeHTML(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'`=".contains($0) }) else { return text }
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#x27;"
            case "`": out += "&#x60;"
            case "=": out += "&#x3D;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// JSON as WireMock's Jackson pretty printer writes it (what `jsonPath` gives for an object).
enum JacksonPretty {
    static func text(_ value: JSONValue, indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch value {
        case .object(let members):
            if members.isEmpty { return "{ }" }
            return "{\n" + members.map { pad + JSONValue.string($0.key).jsonText + " : " + text($0.value, indent: indent + 1) }
                .joined(separator: ",\n") + "\n" + end + "}"
        case .array(let items):
            if items.isEmpty { return "[ ]" }
            return "[ " + items.map { text($0, indent: indent) }.joined(separator: ", ") + " ]"
        default:
            return value.jsonText
        }
    }
}

/// `randomValue`'s alphabets.
enum StubRandom {
    static func value(length: Int, type: String) -> String {
        var generator = SystemRandomNumberGenerator()
        if type == "UUID" { return UUIDString.random(using: &generator) }
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", digits = "0123456789"
        let alphabet: [Character]
        switch type {
        case "ALPHABETIC": alphabet = Array(letters)
        case "NUMERIC": alphabet = Array(digits)
        case "HEXADECIMAL": alphabet = Array("0123456789abcdef")
        case "ALPHANUMERIC_AND_SYMBOLS": alphabet = Array(letters + digits + "!#$%&()*+,-./:;<=>?@[]^_{|}~")
        default: alphabet = Array(letters + digits)
        }
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}

/// A random version-4 UUID in lower case, as WireMock's ids are.
enum UUIDString {
    static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { b -> String in
            let h = String(b, radix: 16)
            return h.count == 1 ? "0" + h : h
        }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// Whether `text` is a UUID (any case).
    static func isValid(_ text: String) -> Bool {
        let c = Array(text.utf8)
        guard c.count == 36 else { return false }
        for (i, b) in c.enumerated() {
            if [8, 13, 18, 23].contains(i) { if b != UInt8(ascii: "-") { return false } } else if FormDecoding.hexValue(b) == nil { return false }
        }
        return true
    }
}
