import HTTPServer

/// The helpers WireMock 2.35 registers (handlebars.java's built-ins, its String, Number and
/// Conditional helpers, `assign`, and WireMock's own), and those refused when a mapping is read.
enum StubTemplateHelpers {
    static let names: Set<String> = [
        // handlebars.java built-ins
        "if", "unless", "each", "with", "lookup",
        // ConditionalHelpers
        "eq", "neq", "gt", "gte", "lt", "lte", "and", "or", "not",
        // StringHelpers (those implemented) and NumberHelper
        "capitalize", "capitalizeFirst", "upper", "lower", "join", "substring", "replace", "cut", "defaultIfEmpty",
        "yesno", "abbreviate", "ljust", "rjust", "center", "isEven", "isOdd", "stripes", "numberFormat",
        "assign",
        // WireMockHelpers
        "jsonPath", "randomValue", "hostname", "date", "now", "parseDate", "truncateDate", "trim", "base64", "urlEncode",
        "formData", "regexExtract", "size", "pickRandom", "randomInt", "randomDecimal", "range", "array", "parseJson",
        "matches", "contains", "math", "systemValue", "xPath", "soapXPath",
    ]

    static let refused: [String: String] = [
        "dateFormat": "it needs Java's locale data (use date … format=)",
        "stringFormat": "it needs Java's String.format",
        "slugify": "not implemented here",
        "stripTags": "not implemented here",
        "wordWrap": "not implemented here",
        "log": "not implemented here",
        "i18n": "no message bundles here", "i18nJs": "no message bundles here",
        "embedded": "no partials here", "precompile": "no partials here", "block": "no partials here", "partial": "no partials here",
    ]

    /// What `HelperUtils.coerceToInt` makes of a value.
    enum JavaInt: Equatable {
        case int(Int)
        /// A text `Integer.parseInt` refuses (its NumberFormatException).
        case notANumber(String)
        /// No number: null, a list (a `ListOrSingle` too), a boolean, a map, an XML node.
        case none
    }

    /// `HelperUtils.coerceToInt`: a Java number's `intValue()` (a double truncated and saturated,
    /// a long wrapped), a text through `Integer.parseInt`, anything else nothing.
    static func coerceToInt(_ value: TemplateValue) -> JavaInt {
        switch value {
        case .int(let i): return .int(Int(Int32(truncatingIfNeeded: i)))
        case .double(let d):
            if d.isNaN { return .int(0) }
            return .int(Int(Int32(min(max(d.rounded(.towardZero), Double(Int32.min)), Double(Int32.max)))))
        case .string(let s):
            var digits = Substring(s)
            if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int32(s) else { return .notANumber(s) }
            return .int(Int(n))
        default: return .none
        }
    }

    /// `HelperUtils.coerceToDouble`: a Java number's `doubleValue()`, a text through
    /// `Double.parseDouble` (spaces around and a `d`/`f` suffix allowed), anything else nil.
    static func coerceToDouble(_ value: TemplateValue) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s):
            var text = Substring(s.trimmingJavaWhitespace())
            if let last = text.last, "dDfF".contains(last) { text = text.dropLast() }
            return Double(String(text))
        default: return nil
        }
    }

    /// `base64 decode=true` as WireMock's Guava `BaseEncoding.base64().decode`: trailing `=` are
    /// dropped, so padding is optional (`aGVsbG8` is "hello"); a length of 4n+1 is not base64.
    static func guavaBase64Decode(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        while body.hasSuffix("=") { body.removeLast() }
        let remainder = body.utf8.count % 4
        guard remainder != 1 else { return nil }
        return Base64.decode(String(body) + String(repeating: "=", count: (4 - remainder) % 4))
    }
}

extension StubTemplateRenderer {
    /// `[ERROR: …]`, which WireMock writes in place of a helper's value when its input is wrong.
    static func error(_ message: String) -> TemplateValue { .string("[ERROR: " + message + "]") }

    /// Runs the helper `name`; a block's output goes to the buffer (the answer is then null).
    mutating func helper(_ name: String, _ call: TemplateCall, body: [TemplateNode]?, inverse: [TemplateNode]?) -> TemplateValue {
        let args = call.params.map { evaluate($0) }
        var hash: [String: TemplateValue] = [:]
        for (k, v) in call.hash { hash[k] = evaluate(v) }
        let context = args.first ?? contexts[contexts.count - 1]
        let hasContext = !args.isEmpty
        let params = Array(args.dropFirst())
        let isBlock = body != nil
        let body = body ?? [], inverse = inverse ?? []

        /// A condition's outcome: the block or its inverse, else `yes=`/`no=` or the boolean.
        func decide(_ result: Bool, _ r: inout StubTemplateRenderer) -> TemplateValue {
            if isBlock { r.render(result ? body : inverse); return .null }
            return result ? (hash["yes"] ?? .bool(true)) : (hash["no"] ?? .bool(false))
        }

        switch name {
        case "if", "unless":
            let truth = !materialize(context).isFalsy
            let result = name == "if" ? truth : !truth
            if isBlock { render(result ? body : inverse); return .null }
            return result ? (params.first ?? .null) : (params.count > 1 ? params[1] : .null)
        case "with":
            guard isBlock else { return context }
            let value = materialize(context)
            if value.isFalsy { render(inverse); return .null }
            if let n = call.blockParams.first { locals.append([(n, value)]) }
            contexts.append(value)
            render(body)
            contexts.removeLast()
            if !call.blockParams.isEmpty { locals.removeLast() }
            return .null
        case "each":
            guard isBlock else { return .null }
            let value = materialize(context)
            switch value {
            case .list(let items, _): each(items.enumerated().map { (String($0.offset), $0.element) }, isList: true, body: body, inverse: inverse, names: call.blockParams)
            case .map(let members, _): each(members.map { ($0.key, $0.value) }, isList: false, body: body, inverse: inverse, names: call.blockParams)
            case .null: render(inverse)
            default: if value.isFalsy { render(inverse) } else { each([("0", value)], isList: true, body: body, inverse: inverse, names: call.blockParams) }
            }
            return .null
        case "lookup":
            guard hasContext, let key = params.first else { return .null }
            let keyText = key.javaText
            let whole = child(context, keyText)
            if !whole.isNull { return whole }
            return walk(context, ArraySlice(keyText.split(separator: ".").map(String.init)))
        case "eq", "neq":
            let equal = templateEquals(context, params.first ?? .null)
            return decide(name == "eq" ? equal : !equal, &self)
        case "gt", "gte", "lt", "lte":
            guard let order = compare(context, params.first ?? .null) else {
                fail(.invalid("\(name): \(context.javaText) and \((params.first ?? .null).javaText) cannot be compared"))
                return .null
            }
            let result = name == "gt" ? order > 0 : name == "gte" ? order >= 0 : name == "lt" ? order < 0 : order <= 0
            return decide(result, &self)
        case "and":
            return decide(!materialize(context).isFalsy && params.allSatisfy { !materialize($0).isFalsy }, &self)
        case "or":
            return decide(!materialize(context).isFalsy || params.contains { !materialize($0).isFalsy }, &self)
        case "not":
            return decide(materialize(context).isFalsy, &self)
        case "assign":
            guard hasContext else { return .null }
            variables[context.javaText] = .string(capture(body).trimmingASCIIWhitespace())
            return .null
        case "contains":
            guard hasContext, let expected = params.first else {
                return StubTemplateRenderer.error("You must specify the string or array to be matched and the regular expression")
            }
            if context.isNull || expected.isNull { return isBlock ? .null : .bool(false) }
            let found: Bool
            if let items = context.items { found = items.contains { templateEquals($0, expected) } } else { found = context.javaText.contains(expected.javaText) }
            if isBlock { if found { render(body) }; return .null }
            return .bool(found)
        case "matches":
            guard hasContext, let pattern = params.first else {
                return StubTemplateRenderer.error("You must specify the string to be matched and the regular expression")
            }
            guard let regex = compileRegex(pattern.javaText) else { return .null }
            let found = regex.matchesWhole(context.javaText)
            if isBlock { if found { render(body) }; return .null }
            return .bool(found)
        case "trim":
            return .string((isBlock ? capture(body) : context.javaText).trimmingJavaWhitespace())
        case "base64":
            let text = isBlock ? capture(body) : context.javaText
            if case .bool(true)? = hash["decode"] {
                guard let bytes = StubTemplateHelpers.guavaBase64Decode(text) else { fail(.invalid("base64: the value is not base64")); return .null }
                return .string(String(decoding: bytes, as: UTF8.self))
            }
            var encoded = Base64.encode(Array(text.utf8))
            if case .bool(false)? = hash["padding"] { while encoded.hasSuffix("=") { encoded.removeLast() } }
            return .string(encoded)
        case "urlEncode":
            if case .bool(true)? = hash["decode"] { return .string(FormDecoding.percentDecode(context.javaText, plusIsSpace: true)) }
            return .string(StubTemplateRenderer.javaURLEncode(context.javaText))
        case "size":
            switch materialize(context) {
            case .string(let s): return .int(s.utf16.count)
            case .list(let items, _): return .int(items.count)
            case .map(let members, _): return .int(members.count)
            default: return .null
            }
        case "array":
            return hasContext ? .list(args) : .list([])
        case "range":
            // Both bounds are coerced before either is checked, as in RangeHelper.
            var bounds: [Int] = []
            for value in [hasContext ? context : .null, params.first ?? .null] {
                switch StubTemplateHelpers.coerceToInt(value) {
                case .int(let n): bounds.append(n)
                case .notANumber(let text):
                    fail(.invalid("range: \"\(text)\" is not an integer (WireMock answers 500: NumberFormatException)"))
                    return .null
                case .none: break
                }
            }
            guard bounds.count == 2 else {
                return StubTemplateRenderer.error("The range helper requires both lower and upper bounds as integer parameters")
            }
            let lower = bounds[0], upper = bounds[1]
            // Java int arithmetic; Stream.limit refuses a negative size (WireMock answers 500).
            let count = Int(Int32(truncatingIfNeeded: upper - lower + 1))
            guard count >= 0 else {
                fail(.invalid("range: the upper bound \(upper) is below the lower bound \(lower) by more than one (WireMock answers 500: IllegalArgumentException)"))
                return .null
            }
            guard step(count) else { return .null }
            return .list((0..<count).map { .int(lower + $0) })
        case "pickRandom":
            // With no parameter handlebars.java hands the helper the template's model, which WireMock
            // renders as its Java text (`{parameters={}, request=…RequestTemplateModel@28912f94}`).
            guard hasContext else { fail(.invalid("pickRandom needs something to pick from (WireMock renders its template model's Java text)")); return .null }
            guard !context.isNull else {
                return StubTemplateRenderer.error("Must specify either a single list argument or a set of single value arguments.")
            }
            let choices = context.items ?? args
            guard let pick = choices.randomElement() else { return .null }
            return .string(pick.javaText)
        case "math":
            return math(context, params)
        case "hostname":
            return .string(StubTemplateRenderer.hostname)
        case "systemValue":
            return systemValue(hash)
        default:
            return moreHelpers(name, call, context: context, hasContext: hasContext, params: params, hash: hash, isBlock: isBlock, body: body)
        }
    }

    /// handlebars.java's `cmp`: like types by their order, else both read as numbers.
    func compare(_ a: TemplateValue, _ b: TemplateValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.int(let x), .int(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        default:
            guard let x = Double(a.javaText), let y = Double(b.javaText) else { return nil }
            return x < y ? -1 : x == y ? 0 : 1
        }
    }

    /// Java's `URLEncoder.encode(…, "UTF-8")`: letters, digits and `.-*_` kept, space as `+`.
    static func javaURLEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            case UInt8(ascii: " "): out.append("+")
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out.append("%")
                out.unicodeScalars.append(UnicodeScalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(UnicodeScalar(hex[Int(byte & 15)]))
            }
        }
        return out
    }
}

