/// The `xPath` and `soapXPath` template helpers (`{{xPath request.body '/a/b/text()'}}`): the
/// first node the expression selects in the request body, as WireMock prints it; its error texts
/// (`[ERROR: … is not valid XML]`) where WireMock renders them. `soapXPath` reads below
/// `/Envelope/Body/`. Kept apart from the template parser: it calls `parse` and `render`.
struct XPathHelper: Sendable {
    /// The expression as written (error texts quote it without the SOAP prefix).
    let written: String?
    let compiled: XPath?

    /// The helper for `written` (nil: none given), compiled; a bad expression renders WireMock's error text.
    static func make(_ helper: String, written: String?) -> XPathHelper {
        guard let written else { return XPathHelper(written: nil, compiled: nil) }
        return XPathHelper(written: written, compiled: try? XPath((helper == "soapXPath" ? "/Envelope/Body/" : "") + written))
    }

    /// `words`: the helper's arguments; only `request.body` is a source here.
    static func parse(_ helper: String, positional: [String], named: [String: String],
                      unquoted: (String) -> String, fail: (String) -> StubProblem) throws(StubProblem) -> XPathHelper {
        guard named.isEmpty, (1...2).contains(positional.count), positional[0] == "request.body" else {
            throw fail("\(helper) takes request.body and a quoted XPath")
        }
        guard positional.count == 2 else { return XPathHelper(written: nil, compiled: nil) }
        let written = unquoted(positional[1])
        // A bad expression is WireMock's error text when rendered, not a refused mapping.
        return XPathHelper(written: written, compiled: try? XPath((helper == "soapXPath" ? "/Envelope/Body/" : "") + written))
    }

    func render(_ body: String, budget: inout StubBudget, escaped: Bool, into out: inout StubRenderBuffer) {
        guard let written else { return out.append("[ERROR: The XPath expression cannot be empty]", escaped: escaped) }
        guard let document = try? XMLParser.parse(body) else { return out.append("[ERROR: \(body) is not valid XML]", escaped: escaped) }
        let invalid = "[ERROR: \(written) is not a valid XPath expression]"
        guard let compiled else { return out.append(invalid, escaped: escaped) }
        var evaluator = XPathEvaluator(document: document, namespaces: nil, budget: budget)
        let nodes: [Int]
        do {
            nodes = try evaluator.select(compiled)
        } catch {
            budget = evaluator.budget
            if budget.exhausted { return out.fail(.overBudget("the template's xPath \(written)")) }
            return out.append(invalid, escaped: escaped)
        }
        budget = evaluator.budget
        guard let first = nodes.first else { return }
        let text = document.text(of: first, budget: &budget)
        if budget.exhausted { return out.fail(.overBudget("the template's xPath \(written)")) }
        out.append(text, escaped: escaped)
    }
}
