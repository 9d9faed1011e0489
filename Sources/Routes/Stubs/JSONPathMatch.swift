#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// `matchesJsonPath` as WireMock's `MatchesJsonPathPattern` decides it from what Jayway's
/// `JsonPath.read` gives: a value, "no results" (PathNotFoundException) or another error.
enum JSONPathMatch {
    /// Jayway's read of a request body: XML-looking (WireMock's check) or empty text (Jayway's)
    /// is an error; the rest is read as json-smart's permissive parser reads it (`JSONSmartParser`).
    static func read(_ path: JSONPath, _ text: String) -> Result<JSONValue, JSONPathFailure> {
        if text.isEmpty || text.trimmingASCIIWhitespace().hasPrefix("<") { return .failure(.failed("not a JSON document")) }
        let document: JSONValue
        do {
            document = try JSONSmartParser.parse(text)
        } catch {
            return .failure(.failed("not a JSON document"))
        }
        var budget = StubBudget()
        do {
            return .success(try path.read(document, budget: &budget))
        } catch {
            if case .overBudget = error { StubBudget.reportExhausted("matchesJsonPath \(path.source)", bytes: text.utf8.count) }
            return .failure(error)
        }
    }

    static func matches(_ path: JSONPath, _ sub: StringPattern?, _ text: String, now: Date) -> Bool {
        let result = read(path, text)
        guard let sub else {
            // isSimpleMatch: something non-empty and not null.
            guard case .success(let value) = result else { return false }
            switch value {
            case .null: return false
            case .array(let items): return !items.isEmpty
            case .object(let members): return !members.isEmpty
            default: return true
            }
        }
        // isAdvancedMatch: "no results" reads as null; any other error never matches.
        var found: JSONValue?
        switch result {
        case .success(let value): found = value
        case .failure(.notFound): found = nil
        case .failure: return false
        }
        var texts: [String] = []
        if let value = found, value != .null {
            if case .equalToJson = sub {
                texts = [path.givesDoubles ? JSONPathMatch.javaJSON(value) : value.jsonText]
            } else if case .object = value {
                texts = [JSONPathMatch.pretty(value)]
            } else if path.givesKeySet {
                texts = []
            } else if case .array(let items) = value {
                for item in items {
                    // Java's Object::toString on a null element throws: WireMock answers no match.
                    guard let t = JSONPathValues.javaString(item, doubles: path.givesDoubles) else { return false }
                    texts.append(t)
                }
            } else if let t = JSONPathValues.javaString(value, doubles: path.givesDoubles) {
                texts = [t]
            }
        }
        if texts.isEmpty, case .absent = sub { return true }
        return texts.contains { sub.matches($0, now: now) }
    }

    /// WireMock's `Json.write`: Jackson's pretty printer.
    private static func pretty(_ value: JSONValue) -> String {
        var out = StubRenderBuffer(limit: Int.max)
        JacksonPretty.write(value, into: &out, escaped: false)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Jackson's text of a Double result (`3.0`).
    private static func javaJSON(_ value: JSONValue) -> String {
        if case .number(let d) = value { return JSONPathValues.javaDouble(d) }
        return value.jsonText
    }
}
