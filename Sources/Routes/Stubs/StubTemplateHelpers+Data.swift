#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import LinearRegex

/// The helpers that read and build data: strings, numbers, JSON, forms, regular expressions,
/// random values. Each follows the WireMock 2.35 / handlebars.java class named beside it.
extension StubTemplateRenderer {
    mutating func moreHelpers(_ name: String, _ call: TemplateCall, context: TemplateValue, hasContext: Bool, params: [TemplateValue],
                              hash: [String: TemplateValue], isBlock: Bool, body: [TemplateNode]) -> TemplateValue {
        if isBlock && !["parseJson", "trim", "base64"].contains(name) {
            // As blocks WireMock gives these the model's Java text, never the block's: refused rather than imitated.
            fail(.invalid("{{#\(name)}} is not supported as a block: use {{\(name) value}}"))
            return .null
        }
        let text = context.javaText
        switch name {
        // StringHelpers: a falsy value gives the first parameter instead.
        case "capitalize", "capitalizeFirst", "upper", "lower", "substring", "replace", "cut", "abbreviate", "ljust", "rjust", "center":
            if context.isFalsy { return params.first.map { .string($0.javaText) } ?? .null }
            return stringHelper(name, text, params, hash)
        case "defaultIfEmpty":
            return context.isFalsy ? .string(params.first?.javaText ?? "") : .string(text)
        case "yesno":
            switch context {
            case .bool(true): return hash["yes"] ?? .string("yes")
            case .bool(false): return hash["no"] ?? .string("no")
            default: return hash["maybe"] ?? .string("maybe")
            }
        case "join":
            if context.isFalsy { return .string("") }
            guard let separator = params.last, case .string(let sep) = separator else {
                fail(.invalid("join needs a separator as its last parameter"))
                return .null
            }
            let items = context.items ?? ([context] + params.dropLast())
            let prefix = hash["prefix"]?.javaText ?? "", suffix = hash["suffix"]?.javaText ?? ""
            return .string(prefix + items.map { $0.isNull ? "" : $0.javaText }.joined(separator: sep) + suffix)
        case "isEven", "isOdd", "stripes":
            guard let n = context.integer, context.number != nil, !(context.isString) else { return .null }
            let even = n % 2 == 0
            if name == "isEven" { return even ? .string(params.first?.javaText ?? "even") : .null }
            if name == "isOdd" { return even ? .null : .string(params.first?.javaText ?? "odd") }
            return even ? .string(params.first?.javaText ?? "even") : .string(params.count > 1 ? params[1].javaText : "odd")
        case "numberFormat": return numberFormat(context, params, hash)
        case "jsonPath": return jsonPath(context, params, hash)
        case "xPath", "soapXPath": return xPath(name, context, params)
        case "parseJson": return parseJson(context, hasContext: hasContext, params: params, isBlock: isBlock, body: body)
        case "formData":
            let form = StubTemplateRenderer.form(context.javaText, decode: { if case .bool(true)? = hash["urlDecode"] { return true }; return false }())
            if let variable = params.first { variables[variable.javaText] = form; return .null }
            return form
        case "regexExtract": return regexExtract(context, params, hash)
        case "randomValue": return randomValue(hash)
        case "randomInt":
            // coerceToInt unboxed into an int: a bound that is no number is WireMock's 500.
            var bounds: [Int] = []
            for (key, absent) in [("lower", Int(Int32.min)), ("upper", Int(Int32.max))] {
                let value = hash[key] ?? .null
                if value.isNull { bounds.append(absent); continue }
                guard case .int(let n) = StubTemplateHelpers.coerceToInt(value) else {
                    fail(.invalid("randomInt: \(key)=\(value.javaText) is not a number or the text of one (WireMock answers 500)")); return .null
                }
                bounds.append(n)
            }
            let lower = bounds[0], upper = bounds[1]
            guard lower < upper else { fail(.invalid("randomInt: lower (\(lower)) must be less than upper (\(upper))")); return .null }
            return .int(Int.random(in: lower..<upper))
        case "randomDecimal":
            // coerceToDouble unboxed into a double: a bound that is no number is WireMock's 500.
            for key in ["lower", "upper"] {
                if let value = hash[key], !value.isNull, StubTemplateHelpers.coerceToDouble(value) == nil {
                    fail(.invalid("randomDecimal: \(key)=\(value.javaText) is not a number or the text of one (WireMock answers 500)")); return .null
                }
            }
            let lower = hash["lower"].flatMap(StubTemplateHelpers.coerceToDouble) ?? Double.leastNonzeroMagnitude
            let upper = hash["upper"].flatMap(StubTemplateHelpers.coerceToDouble) ?? Double.greatestFiniteMagnitude
            guard lower < upper else { fail(.invalid("randomDecimal: lower (\(lower)) must be less than upper (\(upper))")); return .null }
            return .double(Double.random(in: lower..<upper))
        default:
            return dateHelper(name, context: context, hasContext: hasContext, params: params, hash: hash)
        }
    }

    private func stringHelper(_ name: String, _ text: String, _ params: [TemplateValue], _ hash: [String: TemplateValue]) -> TemplateValue {
        switch name {
        case "upper": return .string(text.uppercased())
        case "lower": return .string(text.lowercased())
        case "capitalizeFirst": return .string(text.prefix(1).uppercased() + text.dropFirst())
        case "capitalize":
            let fully: Bool = { if case .bool(true)? = hash["fully"] { return true }; return false }()
            var out = "", startOfWord = true
            for c in text {
                if c.isWhitespace { out.append(c); startOfWord = true; continue }
                out += startOfWord ? c.uppercased() : (fully ? c.lowercased() : String(c))
                startOfWord = false
            }
            return .string(out)
        case "substring":
            let chars = Array(text.utf16)
            let start = params.first?.integer ?? 0, end = params.count > 1 ? params[1].integer ?? chars.count : chars.count
            guard start >= 0, start <= end, end <= chars.count else { return .string(text) }
            return .string(String(decoding: chars[start..<end], as: UTF16.self))
        case "replace":
            guard params.count >= 2 else { return .string(text) }
            return .string(text.replacingAll(params[0].javaText, with: params[1].javaText))
        case "cut":
            return .string(text.replacingAll(params.first?.javaText ?? " ", with: ""))
        case "abbreviate":
            guard let width = params.first?.integer, width >= 4 else { return .string(text) }
            let chars = Array(text)
            return .string(chars.count <= width ? text : String(chars[0..<(width - 3)]) + "...")
        default:
            let size = hash["size"]?.integer ?? params.first?.integer ?? 0
            let pad = hash["pad"]?.javaText ?? " "
            let missing = size - text.count
            guard missing > 0, !pad.isEmpty, missing <= 100_000 else { return .string(text) }
            func padding(_ n: Int) -> String { String(String(repeating: pad, count: n / pad.count + 1).prefix(n)) }
            if name == "ljust" { return .string(text + padding(missing)) }
            if name == "rjust" { return .string(padding(missing) + text) }
            return .string(padding(missing / 2) + text + padding(missing - missing / 2))
        }
    }

    // MARK: MathsHelper

    mutating func math(_ left: TemplateValue, _ params: [TemplateValue]) -> TemplateValue {
        guard params.count == 2 else {
            return StubTemplateRenderer.error("All maths functions require two operands and an operator as parameters e.g. 3 '+' 2")
        }
        let op = params[0].javaText
        guard ["+", "-", "*", "x", "/", "%"].contains(op) else { return StubTemplateRenderer.error(op + " is not a valid mathematical operator") }
        let a = TemplateDecimal(left), b = TemplateDecimal(params[1])
        guard let result = a.apply(op, b) else {
            fail(.invalid("math: \(left.javaText) \(op) \(params[1].javaText) has no answer (division by zero or overflow)"))
            return .null
        }
        return result
    }

    // MARK: SystemValueHelper

    func systemValue(_ hash: [String: TemplateValue]) -> TemplateValue {
        let key = hash["key"]?.javaText ?? ""
        guard !key.isEmpty else { return StubTemplateRenderer.error("The key cannot be empty") }
        // WireMock's default SystemKeyAuthoriser: only keys matching wiremock.* (any case).
        guard key.lowercased().hasPrefix("wiremock") else { return StubTemplateRenderer.error("Access to \(key) is denied") }
        guard (hash["type"]?.javaText ?? "ENVIRONMENT") == "ENVIRONMENT" else { return .null }
        guard let value = getenv(key) else { return .null }
        return .string(String(cString: value))
    }

    static let hostname: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    // MARK: regular expressions

    /// Java's `Pattern.compile` (no flags), in the linear-time engine; nil (and a failure) when refused.
    mutating func compileRegex(_ source: String) -> RegexPattern? {
        if let known = regexes[source] { return known }
        do {
            let pattern = try RegexPattern(source)
            if regexes.count < 64 { regexes[source] = pattern }
            return pattern
        } catch {
            fail(.invalid("the regular expression \"\(source)\" is refused: \(error)"))
            return nil
        }
    }

    mutating func regexExtract(_ context: TemplateValue, _ params: [TemplateValue], _ hash: [String: TemplateValue]) -> TemplateValue {
        guard let source = params.first?.javaText else { return StubTemplateRenderer.error("Invalid regex string ") }
        let pattern: RegexPattern
        do { pattern = try RegexPattern(source) } catch {
            // A valid Java pattern this engine refuses is a 500 saying so, never WireMock's text
            // for an invalid one (which would be an answer different from WireMock's, silently).
            if error.isRefusedConstruct { fail(.invalid("regexExtract: the regular expression \"\(source)\" is refused: \(error)")); return .null }
            return StubTemplateRenderer.error("Invalid regex string " + source)
        }
        let text = context.javaText
        var groups: [TemplateValue] = []
        var rest = Substring(text)
        while true {
            guard step(1 + rest.utf8.count / 64) else { return .null }
            var steps = StubBudget.matchSteps
            guard let found = pattern.firstMatch(in: String(rest), steps: &steps) else { break }
            let piece = String(rest)
            if params.count == 1 { return .string(String(piece[found.range])) }
            for g in found.groups { groups.append(g.map { .string(String(piece[$0])) } ?? .null) }
            // After an empty match, move one character on (as Java's find does).
            let end = found.range.isEmpty ? (found.range.upperBound < piece.endIndex ? piece.index(after: found.range.upperBound) : nil) : found.range.upperBound
            guard let end else { break }
            rest = Substring(piece[end...])
            if rest.isEmpty { break }
        }
        if groups.isEmpty { return hash["default"] ?? StubTemplateRenderer.error("Nothing matched " + source) }
        variables[params[1].javaText] = .list(groups, .listOrSingle)
        return .null
    }

    // MARK: JSON

    mutating func jsonPath(_ input: TemplateValue, _ params: [TemplateValue], _ hash: [String: TemplateValue]) -> TemplateValue {
        if input.isNull { return .string("") }
        guard let source = params.first, !source.isNull else { return StubTemplateRenderer.error("The JSONPath cannot be empty") }
        let document: JSONValue
        switch input {
        case .map, .list: document = input.json
        default:
            let text = input.javaText
            if text == lastJSON?.text, let parsed = lastJSON?.value {
                document = parsed
            } else {
                // Jayway refuses "" before reading (an IllegalArgumentException: WireMock answers 500).
                if text.isEmpty { fail(.invalid("jsonPath: the JSON text is empty")); return .null }
                do {
                    document = try JSONSmartParser.parse(text)
                } catch .tooDeep {
                    fail(.invalid("jsonPath: the JSON nests deeper than \(JSONSmartParser.maxDepth)")); return .null
                } catch {
                    return StubTemplateRenderer.error(text + " is not valid JSON")
                }
                lastJSON = (text, document)
            }
        }
        let pathText = source.javaText
        let path: JSONPath
        if let known = jsonPaths[pathText] { path = known } else {
            do { path = try JSONPath(pathText, at: "") } catch { return StubTemplateRenderer.error(pathText + " is not a valid JSONPath expression") }
            if jsonPaths.count < 64 { jsonPaths[pathText] = path }
        }
        // WireMock's helper reads with DEFAULT_PATH_LEAF_TO_NULL; a missing path, an error or
        // null gives its `default` ("" without one).
        let value: JSONValue
        do {
            value = try path.read(document, options: JSONPathOptions(leafToNull: true), budget: &scope.budget)
        } catch {
            if case .overBudget = error { fail(.overBudget("the template's jsonPath \(pathText)")); return .null }
            return hash["default"] ?? .string("")
        }
        switch value {
        case .null: return hash["default"] ?? .string("")
        // Aggregate functions give Java doubles (`3.0`).
        case .number(let d) where path.givesDoubles: return .double(d)
        // A list prints as json-smart's JSONArray does (compact JSON), an object as Jackson's pretty printer.
        case .array(let items): return .list(items.map { TemplateValue(json: $0) }, .json)
        default: return TemplateValue(json: value, top: true)
        }
    }

    /// `xPath` / `soapXPath` (XML/StubTemplate+XPath.swift): the selected nodes (one renders as
    /// its text), or WireMock's error text.
    mutating func xPath(_ name: String, _ input: TemplateValue, _ params: [TemplateValue]) -> TemplateValue {
        let helper = XPathHelper.make(name, written: params.first.map(\.javaText))
        // WireMockHelpers hands the helper String.valueOf(context): a missing value is "null".
        switch helper.value(input.isNull ? "null" : input.javaText, budget: &scope.budget) {
        case .success(let value): return value
        case .failure(let failure): fail(failure); return .null
        }
    }

    mutating func parseJson(_ context: TemplateValue, hasContext: Bool, params: [TemplateValue], isBlock: Bool, body: [TemplateNode]) -> TemplateValue {
        let text: String, variable: String?
        if isBlock {
            text = capture(body)
            variable = hasContext ? context.javaText : nil
        } else {
            guard hasContext else { return StubTemplateRenderer.error("Missing required JSON string parameter") }
            if context.isNull { return .map([], json: false) }
            text = context.javaText
            variable = params.first?.javaText
        }
        let trimmed = text.trimmingJavaWhitespace()
        var result = TemplateValue.map([], json: false)
        if !(trimmed.filter { !$0.isWhitespace } == "{}" || trimmed.isEmpty) {
            guard let parsed = JSONValue.parse(trimmed) else { fail(.invalid("parseJson: the text is not JSON")); return .null }
            if case .array = parsed {} else if case .object = parsed {} else { fail(.invalid("parseJson: the text is not a JSON object or array")); return .null }
            result = TemplateValue(json: parsed)
        }
        if let variable { variables[variable] = result; return .null }
        return result
    }

    /// WireMock's FormParser: `a=1&a=2&b=3` as lists of values (a field with no value left out).
    static func form(_ text: String, decode: Bool) -> TemplateValue {
        var fields: [(key: String, value: TemplateValue)] = []
        for field in text.split(separator: "&", omittingEmptySubsequences: false) {
            var parts = field.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
            while let last = parts.last, last.isEmpty { parts.removeLast() }  // Java's split drops trailing empties
            guard parts.count > 1 else { continue }
            let raw = parts[1].trimmingJavaWhitespace()
            let value = TemplateValue.string(decode ? FormDecoding.percentDecode(raw, plusIsSpace: true) : raw)
            if let i = fields.firstIndex(where: { $0.key == parts[0] }), case .list(let items, let kind) = fields[i].value {
                fields[i].value = .list(items + [value], kind)
            } else {
                fields.append((key: parts[0], value: .list([value], .listOrSingle)))
            }
        }
        return .map(fields, json: false)
    }

    // MARK: HandlebarsRandomValuesHelper

    mutating func randomValue(_ hash: [String: TemplateValue]) -> TemplateValue {
        let length = hash["length"]?.integer ?? 36
        let type = hash["type"]?.javaText ?? "ALPHANUMERIC"
        let uppercase: Bool = { if case .bool(true)? = hash["uppercase"] { return true }; return false }()
        // Never more characters than the answer has room for (one more makes the buffer stop).
        let count = max(0, min(length, out.remaining + 1))
        guard step(1 + count / 64) else { return .null }
        let text = StubRandom.string(count: count, type: type)
        return .string(uppercase ? text.uppercased() : text.lowercased())
    }
}

extension TemplateValue {
    var isString: Bool { if case .string = self { return true } else { return false } }
}

extension String {
    /// Every occurrence of `target` replaced (Java's `String.replace`).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = "", rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
