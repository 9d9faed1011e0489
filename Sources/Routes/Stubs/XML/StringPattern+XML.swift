import HTTPServer

extension StringPattern {
    /// `{"equalToXml": "<a/>", "enablePlaceholders": …, "exemptedComparisons": […]}` and
    /// `{"matchesXPath": "//a" | {"expression": "//a", "equalTo": …}, "xPathNamespaces": {…}}`.
    static func decodeXML(_ op: String, _ object: StrictObject, at pointer: String) throws(StubProblem) -> StringPattern {
        if op == "equalToXml" {
            try object.allow(["equalToXml", "enablePlaceholders", "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex", "exemptedComparisons"])
            guard case .string(let text)? = object["equalToXml"] else {
                throw StubProblem(pointer + "/equalToXml", "\"equalToXml\" must be a string of XML", wireMock: "'equalToXml' expected value cannot be null")
            }
            var exempted = Set<String>()
            switch object["exemptedComparisons"] {
            case nil, .null?: break
            case .array(let items)?:
                for (k, item) in items.enumerated() {
                    guard case .string(let name) = item, XMLEquality.comparisonTypes.contains(name) else {
                        throw StubProblem(pointer + "/exemptedComparisons/\(k)", "not one of XMLUnit's comparison types: \(XMLEquality.comparisonTypes.sorted().joined(separator: ", "))")
                    }
                    exempted.insert(name)
                }
            default: throw StubProblem(pointer + "/exemptedComparisons", "\"exemptedComparisons\" must be an array of comparison type names")
            }
            let equality = try XMLEquality(text, placeholders: try object.bool("enablePlaceholders") ?? false,
                                           opening: try object.string("placeholderOpeningDelimiterRegex"),
                                           closing: try object.string("placeholderClosingDelimiterRegex"),
                                           exempted: exempted, at: pointer)
            return .equalToXml(XMLEqualityBox(equality))
        }
        try object.allow(["matchesXPath", "xPathNamespaces"])
        var namespaces: [String: String]?
        switch object["xPathNamespaces"] {
        case nil, .null?: break
        case .object(let members)?:
            var map: [String: String] = [:]
            for (key, value) in members {
                guard case .string(let uri) = value else { throw StubProblem(pointer + "/xPathNamespaces/" + key, "a namespace URI must be a string") }
                map[key] = uri
            }
            namespaces = map
        default: throw StubProblem(pointer + "/xPathNamespaces", "\"xPathNamespaces\" must be an object of prefix → URI")
        }
        switch object["matchesXPath"] {
        case .string(let expression)?:
            return .matchesXPath(XPathPattern(expression, namespaces: namespaces), nil)
        case .object(let members)?:
            guard case .string(let expression)? = members.last(where: { $0.key == "expression" })?.value else {
                throw StubProblem(pointer + "/matchesXPath/expression", "\"expression\" (an XPath) is required",
                                  wireMock: "expression is required in the advanced matchesXPath form")
            }
            let sub: StringPattern
            do throws(StubProblem) {
                sub = try StringPattern.decode(.object(members.filter { $0.key != "expression" }), at: pointer + "/matchesXPath")
            } catch {
                // WireMock reads the inner matcher from the same object: it points at the outer one.
                throw error.replacingWireMockPrefix(pointer + "/matchesXPath", with: pointer)
            }
            return .matchesXPath(XPathPattern(expression, namespaces: namespaces), StringPatternBox(sub))
        default:
            throw StubProblem(pointer + "/matchesXPath", "\"matchesXPath\" must be an XPath string or {\"expression\": …, \"equalTo\": …}")
        }
    }
}
