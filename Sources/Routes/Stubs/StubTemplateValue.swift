import HTTPServer

/// A value while a template renders, as handlebars.java sees WireMock's model: strings, Java
/// numbers and booleans, lists (WireMock's `ListOrSingle`, its `UrlPath`), maps, dates, and the
/// request, whose parts are read only when a template names them.
indirect enum TemplateValue {
    enum ListKind {
        case plain
        /// WireMock's `ListOrSingle`: one item renders as that item; `first`, `last`, `[-n]`.
        case listOrSingle
        /// `request.path`: the segments, rendered as the whole path.
        case urlPath(String)
        /// What `jsonPath` selects: rendered as json-smart's JSONArray (compact JSON).
        case json
    }

    /// Parts of the request model, resolved on use (`request.headers.x` never builds the rest).
    enum Lazy {
        case request, requestLine, headers, query, cookies
    }

    case null
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([TemplateValue], ListKind)
    /// `json`: rendered as WireMock renders `jsonPath`'s objects (Jackson, pretty), else as a Java map.
    case map([(key: String, value: TemplateValue)], json: Bool)
    case date(TemplateDate)
    case lazy(Lazy)
    /// A node the `xPath` helper selected (XML/StubTemplate+XPath.swift).
    case xml(TemplateXMLNode)

    static func list(_ items: [TemplateValue]) -> TemplateValue { .list(items, .plain) }

    /// A JSON value as Jackson reads it into Java objects (whole numbers become integers).
    init(json: JSONValue, top: Bool = false) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .string(let s): self = .string(s)
        case .number(let d):
            if d.rounded() == d, abs(d) < 9.0e15 { self = .int(Int(d)) } else { self = .double(d) }
        case .array(let items): self = .list(items.map { TemplateValue(json: $0) }, .plain)
        case .object(let members): self = .map(members.map { (key: $0.key, value: TemplateValue(json: $0.value)) }, json: top)
        }
    }

    /// Back to JSON (for Jackson's rendering of a `jsonPath` object).
    var json: JSONValue {
        switch self {
        case .null, .lazy: return .null
        case .string(let s): return .string(s)
        case .int(let i): return .number(Double(i))
        case .double(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .list(let items, _): return .array(items.map(\.json))
        case .map(let members, _): return .object(members.map { (key: $0.key, value: $0.value.json) })
        case .date, .xml: return .string(javaText)
        }
    }

    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// handlebars.java's `Utils.isEmpty`: what `if`, `unless`, `and`, `or` and `not` call false.
    var isFalsy: Bool {
        switch self {
        case .null: return true
        case .string(let s): return s.isEmpty
        case .bool(let b): return !b
        case .int(let i): return i == 0
        case .double(let d): return d == 0
        case .list(let items, _): return items.isEmpty
        case .map, .date, .lazy, .xml: return false
        }
    }

    /// The text Java's `toString()` gives (what a mustache writes).
    var javaText: String {
        switch self {
        case .null: return ""
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return TemplateValue.javaDouble(d)
        case .bool(let b): return b ? "true" : "false"
        case .list(let items, let kind):
            switch kind {
            case .urlPath(let whole): return whole
            // WireMock 2.35's ListOrSingle.toString: the first item, "" when none (a list to `each` over).
            case .listOrSingle: return items.first?.javaText ?? ""
            case .json: return self.json.jsonText
            default: return "[" + items.map(\.nestedText).joined(separator: ", ") + "]"
            }
        case .map(let members, let json):
            if json {
                var out = StubRenderBuffer(limit: Int.max)
                JacksonPretty.write(self.json, into: &out, escaped: false)
                return String(decoding: out.bytes, as: UTF8.self)
            }
            return "{" + members.map { $0.key + "=" + $0.value.nestedText }.joined(separator: ", ") + "}"
        case .date(let date): return date.text
        case .lazy: return ""
        case .xml(let node): return node.rendered
        }
    }

    /// Inside a Java collection's `toString()`, null is "null".
    private var nestedText: String { isNull ? "null" : javaText }

    /// Java's `Double.toString`: "4.0", "0.001", "1.0E7", "1.0E-4" (one implementation, JSONPath's).
    static func javaDouble(_ d: Double) -> String { JSONPathValues.javaDouble(d) }

    /// A number as Java code sees one, for `math`, comparisons and bounds.
    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return Double(s.trimmingASCIIWhitespace())
        case .xml(let node): return Double(node.rendered.trimmingASCIIWhitespace())
        case .list(let items, .listOrSingle) where items.count == 1: return items[0].number
        default: return nil
        }
    }

    /// `HelperUtils.coerceToInt`: a number, or a string Java's `parseInt` reads.
    var integer: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d): return d.isFinite && abs(d) < 9.0e18 ? Int(d) : nil
        case .string(let s): return Int(s)
        case .xml(let node): return Int(node.rendered)
        case .list(let items, .listOrSingle) where items.count == 1: return items[0].integer
        default: return nil
        }
    }

    /// The items when this is a list (a `ListOrSingle` too).
    var items: [TemplateValue]? {
        if case .list(let items, _) = self { return items }
        return nil
    }
}

/// Java's `equals` between two model values (handlebars' `eq`, `neq`, `contains`).
func templateEquals(_ a: TemplateValue, _ b: TemplateValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.string(let x), .string(let y)): return x == y
    case (.int(let x), .int(let y)): return x == y
    case (.double(let x), .double(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.list(let x, _), .list(let y, _)): return x.count == y.count && zip(x, y).allSatisfy { templateEquals($0, $1) }
    case (.date(let x), .date(let y)): return x.millis == y.millis
    default: return false
    }
}
