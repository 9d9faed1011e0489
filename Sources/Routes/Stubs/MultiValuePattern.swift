#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// A matcher of a field that may repeat (header, query or form parameter): one value matcher,
/// any value of which may match (WireMock 2.35's `MultiValuePattern`), or WireMock 3's
/// `hasExactly` (as many values as matchers, each matcher matching one) and `includes` (each
/// matcher matching one of the values). WireMock 2.35 refuses the last two.
enum MultiValuePattern: Sendable {
    case single(StringPattern)
    case hasExactly([StringPattern])
    case includes([StringPattern])

    static func decode(_ value: JSONValue, at pointer: String) throws(StubProblem) -> MultiValuePattern {
        guard let key = ["hasExactly", "includes"].first(where: { value[$0] != nil }) else {
            return .single(try StringPattern.decode(value, at: pointer))
        }
        let object = try StrictObject(value, at: pointer, what: "a value matcher")
        try object.allow([key])
        guard case .array(let items)? = object[key], !items.isEmpty else {
            throw StubProblem(pointer + "/" + key, "\"\(key)\" must be a non-empty array of matchers")
        }
        var patterns: [StringPattern] = []
        for (i, item) in items.enumerated() { patterns.append(try StringPattern.decode(item, at: "\(pointer)/\(key)/\(i)")) }
        return key == "hasExactly" ? .hasExactly(patterns) : .includes(patterns)
    }

    func matches(values: [String], now: Date) -> Bool {
        switch self {
        case .single(let pattern): return pattern.matches(values: values, now: now)
        case .hasExactly(let patterns):
            guard !values.isEmpty, values.count == patterns.count else { return false }
            return patterns.allSatisfy { p in values.contains { p.matches($0, now: now) } }
        case .includes(let patterns):
            guard !values.isEmpty else { return false }
            return patterns.allSatisfy { p in values.contains { p.matches($0, now: now) } }
        }
    }
}
