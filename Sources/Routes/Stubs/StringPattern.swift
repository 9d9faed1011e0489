import HTTPServer

/// One of WireMock's value matchers (`equalTo`, `contains`, `doesNotContain`, `matches`, `doesNotMatch`,
/// `absent`, `equalToJson`, `matchesJsonPath`, `equalToXml`, `matchesXPath`), applied to a header, query parameter, cookie or body.
enum StringPattern: Sendable {
    case equalTo(String, caseInsensitive: Bool)
    case contains(String)
    case doesNotContain(String)
    case matches(StubRegex)
    case doesNotMatch(StubRegex)
    case absent
    case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool)
    case matchesJsonPath(JSONPath, StringPatternBox?)
    case equalToXml(XMLEqualityBox)
    case matchesXPath(XPathPattern, StringPatternBox?)

    static let operators = ["equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "equalToJson", "matchesJsonPath", "equalToXml", "matchesXPath"]
    static let refusedOperators: [String: String] = [
        "binaryEqualTo": "binaryEqualTo is not supported: compare with equalTo on the text, or contains",
        "before": "date matchers (before, after, equalToDateTime) are not supported",
        "after": "date matchers (before, after, equalToDateTime) are not supported",
        "equalToDateTime": "date matchers (before, after, equalToDateTime) are not supported",
        "and": "logical matchers (and, or, not) are not supported: use one matcher per field",
        "or": "logical matchers (and, or, not) are not supported: use one matcher per field",
        "not": "logical matchers (and, or, not) are not supported: use one matcher per field",
        "hasExactly": "multi-value matchers (hasExactly, includes) are not supported",
        "includes": "multi-value matchers (hasExactly, includes) are not supported",
    ]

    /// Reads `{"equalTo": "x", "caseInsensitive": true}` and the like; exactly one operator.
    static func decode(_ value: JSONValue, at pointer: String) throws(StubProblem) -> StringPattern {
        let object = try StrictObject(value, at: pointer, what: "a value matcher such as {\"equalTo\": \"…\"}")
        guard let op = object.keys.first(where: { operators.contains($0) || refusedOperators[$0] != nil }) else {
            throw StubProblem(pointer, "no matcher: give one of \(operators.joined(separator: ", "))")
        }
        if let why = refusedOperators[op] { throw StubProblem(pointer + "/" + op, why) }
        switch op {
        case "equalTo":
            try object.allow(["equalTo", "caseInsensitive"])
            guard let text = try object.string("equalTo") else { throw StubProblem(pointer + "/equalTo", "\"equalTo\" must be a string") }
            return .equalTo(text, caseInsensitive: try object.bool("caseInsensitive") ?? false)
        case "contains", "doesNotContain":
            try object.allow([op])
            guard let text = try object.string(op) else { throw StubProblem(pointer + "/" + op, "\"\(op)\" must be a string") }
            return op == "contains" ? .contains(text) : .doesNotContain(text)
        case "matches", "doesNotMatch":
            try object.allow([op])
            guard let text = try object.string(op) else { throw StubProblem(pointer + "/" + op, "\"\(op)\" must be a string") }
            let regex = try StubRegex(text, at: pointer + "/" + op)
            return op == "matches" ? .matches(regex) : .doesNotMatch(regex)
        case "absent":
            try object.allow(["absent"])
            // WireMock 1.x and some recorders wrote `"absent": "(absent)"`; 2.x still reads it as `true`.
            let legacy = object["absent"] == .string("(absent)")
            let flag = legacy ? true : try object.bool("absent")
            guard flag == true else {
                throw StubProblem(pointer + "/absent", "\"absent\" must be true")
            }
            return .absent
        case "equalToJson":
            try object.allow(["equalToJson", "ignoreArrayOrder", "ignoreExtraElements"],
                             unsupported: ["serializeFormat": "serializeFormat is not supported"])
            var expected = object["equalToJson"] ?? .null
            if case .string(let text) = expected {
                guard let parsed = JSONValue.parse(text) else {
                    throw StubProblem(pointer + "/equalToJson", "\"equalToJson\" is a string that is not JSON: \(text.prefix(80))")
                }
                expected = parsed
            }
            return .equalToJson(expected, ignoreArrayOrder: try object.bool("ignoreArrayOrder") ?? false,
                                ignoreExtraElements: try object.bool("ignoreExtraElements") ?? false)
        case "equalToXml", "matchesXPath":
            return try StringPattern.decodeXML(op, object, at: pointer)
        default:
            try object.allow(["matchesJsonPath"])
            switch object["matchesJsonPath"] {
            case .string(let expression)?:
                return .matchesJsonPath(try JSONPath(expression, at: pointer + "/matchesJsonPath"), nil)
            case .object? :
                let inner = try StrictObject(object["matchesJsonPath"] ?? .null, at: pointer + "/matchesJsonPath", what: "matchesJsonPath")
                guard let expression = try inner.string("expression") else {
                    throw StubProblem(pointer + "/matchesJsonPath/expression", "\"expression\" (a JSONPath) is required")
                }
                let path = try JSONPath(expression, at: pointer + "/matchesJsonPath/expression")
                let rest = JSONValue.object((object["matchesJsonPath"] ?? .null).stubMembers.filter { $0.key != "expression" })
                let sub = try StringPattern.decode(rest, at: pointer + "/matchesJsonPath")
                if case .matchesJsonPath = sub { throw StubProblem(pointer + "/matchesJsonPath", "a nested matchesJsonPath is not supported") }
                return .matchesJsonPath(path, StringPatternBox(sub))
            default:
                throw StubProblem(pointer + "/matchesJsonPath", "\"matchesJsonPath\" must be a JSONPath string or {\"expression\": …, \"equalTo\": …}")
            }
        }
    }

    /// Whether a present value matches (`absent` never does).
    func matches(_ value: String) -> Bool {
        switch self {
        case .equalTo(let expected, let caseInsensitive):
            return caseInsensitive ? expected.lowercased() == value.lowercased() : expected == value
        case .contains(let part): return value.contains(part)
        case .doesNotContain(let part): return !value.contains(part)
        case .matches(let regex): return regex.matchesWhole(value)
        case .doesNotMatch(let regex): return !regex.matchesWhole(value)
        case .absent: return false
        case .equalToJson(let expected, let ignoreArrayOrder, let ignoreExtra):
            guard let actual = JSONValue.parse(value) else { return false }
            var budget = StubBudget()
            let equal = JSONMatch.equal(expected, actual, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtra, budget: &budget)
            if budget.exhausted { StubBudget.reportExhausted("equalToJson", bytes: value.utf8.count) }
            return equal
        case .matchesJsonPath(let path, let sub):
            guard let document = JSONValue.parse(value) else { return false }
            var budget = StubBudget()
            let found = path.evaluate(document, budget: &budget)
            if budget.exhausted {
                StubBudget.reportExhausted("matchesJsonPath \(path.source)", bytes: value.utf8.count)
                return false
            }
            guard let sub else { return path.isDefinite ? !found.isEmpty && found[0] != .null : !found.isEmpty }
            if path.isDefinite {
                guard let first = found.first else { return sub.pattern.matchesMissing }
                return sub.pattern.matches(first.stubText)
            }
            return sub.pattern.matches(JSONValue.array(found).jsonText)
        case .equalToXml(let box):
            var budget = StubBudget()
            let equal = box.equality.matches(value, budget: &budget)
            if budget.exhausted { StubBudget.reportExhausted("equalToXml", bytes: value.utf8.count) }
            return equal
        case .matchesXPath(let pattern, let sub):
            guard let texts = pattern.selectedTexts(value), !texts.isEmpty else { return false }
            guard let sub else { return true }
            return texts.contains { sub.pattern.matches($0) }
        }
    }

    /// Whether a missing value matches: only `absent` does.
    var matchesMissing: Bool {
        if case .absent = self { return true }
        return false
    }

    /// Matches a field that may repeat: absent means no value; otherwise any value may match.
    func matches(values: [String]) -> Bool {
        if case .absent = self { return values.isEmpty }
        return values.contains { matches($0) }
    }
}

/// Indirection so a pattern may hold a pattern.
final class StringPatternBox: Sendable {
    let pattern: StringPattern
    init(_ pattern: StringPattern) { self.pattern = pattern }
}
