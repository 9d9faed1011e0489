import HTTPServer
import LinearRegex

/// json-unit's placeholders in an `equalToJson` value, which WireMock 2.35 always honours (its
/// `EqualToJsonPattern` hands the comparison to json-unit): `${json-unit.any-string}`,
/// `…any-number}`, `…any-boolean}`, `…ignore}` (any value, the member must be there),
/// `…ignore-element}` (the member may be missing too), `${json-unit.regex}PATTERN` (a string
/// matching the whole pattern); `#{…}` is read as `${…}`. The regexes are compiled when the
/// mapping is read, with the linear-time engine.
struct JSONPlaceholders: Sendable {
    private let regexes: [String: RegexPattern]
    /// Placeholders in the whole expected value: at most this many distinct regexes.
    static let maxRegexes = 64

    /// The placeholders of `expected`, nil when it has none; throws for a regex that does not compile.
    static func find(in expected: JSONValue, at pointer: String) throws(StubProblem) -> JSONPlaceholders? {
        var regexes: [String: RegexPattern] = [:]
        var found = false
        var stack: [JSONValue] = [expected]
        while let value = stack.popLast() {
            switch value {
            case .object(let members): stack.append(contentsOf: members.map(\.value))
            case .array(let items): stack.append(contentsOf: items)
            case .string(let text):
                guard let name = placeholderName(text) else { continue }
                found = true
                guard name.hasPrefix("regex}"), regexes[text] == nil else { continue }
                guard regexes.count < maxRegexes else { throw StubProblem(pointer, "more than \(maxRegexes) json-unit regex placeholders") }
                let source = String(name.dropFirst("regex}".count))
                do { regexes[text] = try RegexPattern(source) } catch {
                    throw StubProblem(pointer, "the json-unit regex \"\(source)\" is refused: \(error)")
                }
            default: continue
            }
        }
        return found ? JSONPlaceholders(regexes: regexes) : nil
    }

    /// What follows `${json-unit.` (or `#{json-unit.`), nil when `text` is no placeholder.
    private static func placeholderName(_ text: String) -> Substring? {
        for prefix in ["${json-unit.", "#{json-unit."] where text.hasPrefix(prefix) { return text.dropFirst(prefix.count) }
        return nil
    }

    /// The verdict of the placeholder `text` on `actual`; nil when `text` is no placeholder
    /// (then it is compared as a string).
    func match(_ text: String, _ actual: JSONValue) -> Bool? {
        guard let name = JSONPlaceholders.placeholderName(text) else { return nil }
        switch name {
        case "ignore}", "ignore-element}": return true
        case "any-string}": if case .string = actual { return true } else { return false }
        case "any-number}": if case .number = actual { return true } else { return false }
        case "any-boolean}": if case .bool = actual { return true } else { return false }
        default:
            if name.hasPrefix("regex}"), let regex = regexes[text] {
                guard case .string(let s) = actual else { return false }
                return regex.matchesWhole(s)
            }
            // `${json-unit.matches:NAME}` needs a matcher WireMock never registers: it never matches there.
            if name.hasPrefix("matches:") { return false }
            return nil
        }
    }

    /// Whether `expected` is `${json-unit.ignore-element}`.
    func ignoresElement(_ expected: JSONValue) -> Bool {
        guard case .string(let text) = expected else { return false }
        return JSONPlaceholders.placeholderName(text) == "ignore-element}"
    }
}
