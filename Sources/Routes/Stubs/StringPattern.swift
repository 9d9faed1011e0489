#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// One of WireMock's value matchers (`equalTo`, `contains`, `doesNotContain`, `matches`, `doesNotMatch`,
/// `absent`, `anything`, `equalToJson`, `matchesJsonPath`, `equalToXml`, `matchesXPath`, the date
/// matchers, `and`, `or`, WireMock 3's `not`; `binaryEqualTo` for a body), applied to a header,
/// query parameter, cookie or body.
indirect enum StringPattern: Sendable {
    case equalTo(String, caseInsensitive: Bool)
    case contains(String)
    case doesNotContain(String)
    case matches(StubRegex)
    case doesNotMatch(StubRegex)
    case absent
    case anything
    case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool, placeholders: JSONPlaceholders?)
    case matchesJsonPath(JSONPath, StringPatternBox?)
    case dateTime(StubDatePattern)
    case and([StringPattern])
    case or([StringPattern])
    case not(StringPattern)
    /// A body's bytes (base64 in the mapping); only in `bodyPatterns`.
    case binaryEqualTo([UInt8])
    case equalToXml(XMLEqualityBox)
    case matchesXPath(XPathPattern, StringPatternBox?)

    static let operators = ["equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "anything", "equalToJson",
                            "matchesJsonPath", "before", "after", "equalToDateTime", "and", "or", "not", "binaryEqualTo",
                            "equalToXml", "matchesXPath"]
    /// Operators WireMock 2.35 has and this server refuses, with why (none today; kept for the next).
    static let refusedOperators: [String: String] = [:]
    /// How deep `and`, `or`, `not` and `matchesJsonPath` may nest.
    static let maxDepth = 16

    /// Reads `{"equalTo": "x", "caseInsensitive": true}` and the like; exactly one operator.
    /// `body`: a body pattern (`binaryEqualTo` is one there only); `depth`: nesting so far.
    static func decode(_ value: JSONValue, at pointer: String, body: Bool = false, depth: Int = 0) throws(StubProblem) -> StringPattern {
        // WireMock's deserialiser reads the matcher as one object: its errors point at it.
        do throws(StubProblem) {
            return try decodeOperator(value, at: pointer, body: body, depth: depth)
        } catch {
            throw error.pointedByWireMock(at: pointer)
        }
    }

    /// The string operand of `op`, refused in WireMock's words when it is not one.
    private static func operand(_ op: String, of object: StrictObject) throws(StubProblem) -> String {
        guard case .string(let text)? = object[op] else {
            throw StubProblem(object.pointer + "/" + op, "\"\(op)\" must be a string", wireMock: "\(op) operand must be a non-null string")
        }
        return text
    }

    private static func decodeOperator(_ value: JSONValue, at pointer: String, body: Bool, depth: Int) throws(StubProblem) -> StringPattern {
        let object: StrictObject
        do throws(StubProblem) {
            object = try StrictObject(value, at: pointer, what: "a value matcher such as {\"equalTo\": \"…\"}")
        } catch {
            // WireMock finds no operator in a string or an array either (null it reads as no matcher).
            var problem = error
            if value != .null { problem.wireMockDetail = "\(value.jsonText) is not a valid match operation" }
            throw problem
        }
        guard let op = object.keys.first(where: { operators.contains($0) || refusedOperators[$0] != nil }) else {
            // WireMock's words (docs/stubs.md lists the operators).
            throw StubProblem(pointer, "\(value.jsonText) is not a valid match operation")
        }
        if let why = refusedOperators[op] { throw StubProblem(pointer + "/" + op, why) }
        guard depth < maxDepth else { throw StubProblem(pointer, "matchers nest deeper than \(maxDepth) levels") }
        switch op {
        case "equalTo":
            try object.allow(["equalTo", "caseInsensitive"])
            let text = try operand("equalTo", of: object)
            return .equalTo(text, caseInsensitive: try object.bool("caseInsensitive") ?? false)
        case "contains", "doesNotContain":
            try object.allow([op])
            let text = try operand(op, of: object)
            return op == "contains" ? .contains(text) : .doesNotContain(text)
        case "matches", "doesNotMatch":
            try object.allow([op])
            let text = try operand(op, of: object)
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
        case "anything":
            try object.allow(["anything"])
            return .anything
        case "before", "after", "equalToDateTime":
            return .dateTime(try StubDatePattern.decode(object, kind: StubDatePattern.Kind(rawValue: op) ?? .before, at: pointer))
        case "and", "or":
            try object.allow([op])
            guard case .array(let items)? = object[op] else {
                // WireMock says "and" for `or` too.
                throw StubProblem(pointer + "/" + op, "\"\(op)\" must be a non-empty array of matchers", wireMock: "and field must be an array of matchers")
            }
            guard !items.isEmpty else { throw StubProblem(pointer + "/" + op, "\"\(op)\" must be a non-empty array of matchers") }
            var operands: [StringPattern] = []
            for (i, item) in items.enumerated() {
                do throws(StubProblem) {
                    operands.append(try decode(item, at: "\(pointer)/\(op)/\(i)", depth: depth + 1))
                } catch {
                    // WireMock reads the operands as a list of their own: its path skips the operator's name.
                    throw error.replacingWireMockPrefix("\(pointer)/\(op)/\(i)", with: "\(pointer)/\(i)")
                }
            }
            return op == "and" ? .and(operands) : .or(operands)
        case "not":
            try object.allow(["not"])
            return .not(try decode(object["not"] ?? .null, at: pointer + "/not", depth: depth + 1))
        case "binaryEqualTo":
            try object.allow(["binaryEqualTo"])
            guard body else {
                // WireMock 2.35 has no binaryEqualTo outside bodies.
                throw StubProblem(pointer + "/binaryEqualTo", "binaryEqualTo matches a body only (in bodyPatterns)",
                                  wireMock: "\(value.jsonText) is not a valid match operation")
            }
            guard let text = try object.string("binaryEqualTo"), let bytes = Base64.decode(text) else {
                var problem = StubProblem(pointer + "/binaryEqualTo", "\"binaryEqualTo\" must be base64 text")
                // WireMock's base64 decoder refuses it too, in its own words.
                problem.wireMockAlsoRefuses = true
                throw problem
            }
            return .binaryEqualTo(bytes)
        case "equalToJson":
            // WireMock 2.35 reads these two and ignores `enablePlaceholders` (json-unit's placeholders are always on).
            try object.allow(["equalToJson", "ignoreArrayOrder", "ignoreExtraElements", "enablePlaceholders"],
                             unsupported: ["serializeFormat": "serializeFormat is not WireMock 2.35's (WireMock 2.35 ignores it): remove it"])
            _ = try object.bool("enablePlaceholders")
            var expected = object["equalToJson"] ?? .null
            if case .string(let text) = expected {
                guard let parsed = JSONValue.parse(text) else {
                    var problem = StubProblem(pointer + "/equalToJson", "\"equalToJson\" is a string that is not JSON: \(text.prefix(80))")
                    // WireMock's parser reads single quotes and comments, and stops after the first
                    // value (`true false` is `true` there): such text may be its JSON.
                    let bytes = Array(text.utf8)
                    let valueThenMore = JSONValue.syntaxErrorOffset(bytes).map { JSONValue.parse(Array(bytes.prefix($0))) != nil } ?? false
                    problem.wireMockAlsoRefuses = !text.contains("'") && !text.contains("/") && !valueThenMore
                    problem.wireMockDetail = JacksonSyntaxError.message(for: text)
                    throw problem
                }
                expected = parsed
            }
            return .equalToJson(expected, ignoreArrayOrder: try object.bool("ignoreArrayOrder") ?? false,
                                ignoreExtraElements: try object.bool("ignoreExtraElements") ?? false,
                                placeholders: try JSONPlaceholders.find(in: expected, at: pointer + "/equalToJson"))
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
                    throw StubProblem(pointer + "/matchesJsonPath/expression", "\"expression\" (a JSONPath) is required",
                                      wireMock: "expression is required in the advanced matchesJsonPath form")
                }
                let path = try JSONPath(expression, at: pointer + "/matchesJsonPath/expression")
                let rest = JSONValue.object((object["matchesJsonPath"] ?? .null).stubMembers.filter { $0.key != "expression" })
                let sub: StringPattern
                do throws(StubProblem) {
                    sub = try StringPattern.decode(rest, at: pointer + "/matchesJsonPath", depth: depth + 1)
                } catch {
                    // WireMock reads the inner matcher from the same object: it points at the outer one.
                    throw error.replacingWireMockPrefix(pointer + "/matchesJsonPath", with: pointer)
                }
                if case .matchesJsonPath = sub { throw StubProblem(pointer + "/matchesJsonPath", "a nested matchesJsonPath is not supported") }
                return .matchesJsonPath(path, StringPatternBox(sub))
            default:
                throw StubProblem(pointer + "/matchesJsonPath", "\"matchesJsonPath\" must be a JSONPath string or {\"expression\": …, \"equalTo\": …}")
            }
        }
    }

    /// Whether a value matches, nil being a missing one (WireMock passes `null`): `absent`,
    /// `anything`, `doesNotContain` and `doesNotMatch` match a missing value, and so may `and`,
    /// `or` and `not` of them. `now`: the mock's clock, for the date matchers.
    func matches(_ value: String?, now: Date) -> Bool {
        switch self {
        case .absent: return value == nil
        case .anything: return true
        case .doesNotContain(let part): return value.map { !$0.contains(part) } ?? true
        case .doesNotMatch(let regex): return value.map { !regex.matchesWhole($0) } ?? true
        case .dateTime(let pattern): return pattern.matches(value, now: now)
        case .and(let operands): return operands.allSatisfy { $0.matches(value, now: now) }
        case .or(let operands): return operands.contains { $0.matches(value, now: now) }
        case .not(let operand): return !operand.matches(value, now: now)
        case .binaryEqualTo(let bytes): return value.map { Array($0.utf8) == bytes } ?? false
        default:
            guard let value else { return false }
            return matchesPresent(value, now: now)
        }
    }

    /// The matchers that need a value.
    private func matchesPresent(_ value: String, now: Date) -> Bool {
        switch self {
        case .equalTo(let expected, let caseInsensitive):
            return caseInsensitive ? expected.lowercased() == value.lowercased() : expected == value
        case .contains(let part): return value.contains(part)
        case .matches(let regex): return regex.matchesWhole(value)
        case .equalToJson(let expected, let ignoreArrayOrder, let ignoreExtra, let placeholders):
            guard let actual = JSONValue.parse(value) else { return false }
            var budget = StubBudget()
            let equal = JSONMatch.equal(expected, actual, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtra,
                                        placeholders: placeholders, budget: &budget)
            if budget.exhausted { StubBudget.reportExhausted("equalToJson", bytes: value.utf8.count) }
            return equal
        case .matchesJsonPath(let path, let sub):
            return JSONPathMatch.matches(path, sub?.pattern, value, now: now)
        case .equalToXml(let box):
            var budget = StubBudget()
            let equal = box.equality.matches(value, budget: &budget)
            if budget.exhausted { StubBudget.reportExhausted("equalToXml", bytes: value.utf8.count) }
            return equal
        case .matchesXPath(let pattern, let sub):
            guard let texts = pattern.selectedTexts(value), !texts.isEmpty else { return false }
            guard let sub else { return true }
            return texts.contains { sub.pattern.matches($0, now: now) }
        default:
            return matches(Optional(value), now: now)
        }
    }

    /// Matches a field that may repeat (WireMock's `MultiValuePattern`): no value is a missing
    /// one; otherwise any value may match.
    func matches(values: [String], now: Date) -> Bool {
        if values.isEmpty { return matches(nil, now: now) }
        return values.contains { matches($0, now: now) }
    }

    /// Matches a body: `binaryEqualTo` on its bytes, the rest on its text; an empty body also
    /// counts as a missing one (as `absent` has always read it here).
    func matches(body: [UInt8], text: String, now: Date) -> Bool {
        if case .binaryEqualTo(let bytes) = self { return body == bytes }
        return matches(text, now: now) || (body.isEmpty && matches(nil, now: now))
    }
}

/// Indirection so a pattern may hold a pattern.
final class StringPatternBox: Sendable {
    let pattern: StringPattern
    init(_ pattern: StringPattern) { self.pattern = pattern }
}
