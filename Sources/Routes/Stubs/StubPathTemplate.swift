import HTTPServer
import LinearRegex

/// WireMock 3's `urlPathTemplate` (`/contacts/{id}/addresses/{addressId}`): each `{name}` is one
/// path segment (`[^/]+`), `**` any run of characters; the rest is literal. Compiled to one
/// linear-time regular expression, which the path index runs with the `urlPathPattern` ones and
/// which gives `pathParameters` their values. WireMock 2.35 refuses `urlPathTemplate`.
struct StubPathTemplate: Sendable {
    let source: String
    let regex: StubRegex
    /// The variables, in order (group n + 1 holds the n-th).
    let names: [String]

    init(_ template: String, at pointer: String) throws(StubProblem) {
        var pattern = "", names: [String] = []
        var literal = ""
        func flush() {
            for scalar in literal.unicodeScalars {
                if "\\^$.|?*+()[]{}".unicodeScalars.contains(scalar) { pattern += "\\" }
                pattern.unicodeScalars.append(scalar)
            }
            literal = ""
        }
        var rest = Substring(template)
        while let c = rest.first {
            if c == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw StubProblem(pointer, "an unclosed { in the path template \"\(template)\"") }
                // As WireMock 3: `.`, `;` and `*` in a name are format marks, not part of it.
                let name = rest[rest.index(after: rest.startIndex)..<close].filter { !".;*".contains($0) }
                guard !name.isEmpty else { throw StubProblem(pointer, "an empty {} in the path template \"\(template)\"") }
                flush()
                pattern += "([^/]+)"
                names.append(String(name))
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix("**") {
                flush()
                pattern += "(.*?)"
                names.append(String(names.count))
                rest = rest.dropFirst(2)
            } else {
                literal.append(c)
                rest = rest.dropFirst()
            }
        }
        flush()
        source = template
        regex = try StubRegex(pattern, at: pointer)
        self.names = names
    }

    /// The variables' values in `path` (percent-decoded), nil when the path does not fit.
    func parameters(of path: String) -> [String: String]? {
        guard let match = regex.pattern.wholeMatch(in: path) else { return nil }
        var values: [String: String] = [:]
        for (i, name) in names.enumerated() where i < match.groups.count {
            if let range = match.groups[i] { values[name] = FormDecoding.percentDecode(path[range], plusIsSpace: false) }
        }
        return values
    }
}
