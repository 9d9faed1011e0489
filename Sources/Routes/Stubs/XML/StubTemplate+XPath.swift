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

    /// What the expression selects in `body`: the nodes, or WireMock's error text, or a failure.
    enum Selection {
        case nodes(XMLDocument, [Int])
        case text(String)
        case failure(StubRenderFailure)
    }

    func select(_ body: String, budget: inout StubBudget) -> Selection {
        guard let written else { return .text("[ERROR: The XPath expression cannot be empty]") }
        guard let document = try? XMLParser.parse(body) else { return .text("[ERROR: \(body) is not valid XML]") }
        let invalid = "[ERROR: \(written) is not a valid XPath expression]"
        guard let compiled else { return .text(invalid) }
        var evaluator = XPathEvaluator(document: document, namespaces: nil, budget: budget)
        do {
            let nodes = try evaluator.select(compiled)
            budget = evaluator.budget
            return .nodes(document, nodes)
        } catch {
            budget = evaluator.budget
            if budget.exhausted { return .failure(.overBudget("the template's xPath \(written)")) }
            return .text(invalid)
        }
    }

    func render(_ body: String, budget: inout StubBudget, escaped: Bool, into out: inout StubRenderBuffer) {
        switch select(body, budget: &budget) {
        case .text(let text): out.append(text, escaped: escaped)
        case .failure(let failure): out.fail(failure)
        case .nodes(let document, let nodes):
            guard let first = nodes.first else { return }
            let text = document.text(of: first, budget: &budget)
            if budget.exhausted { return out.fail(.overBudget("the template's xPath \(written ?? "")")) }
            out.append(text, escaped: escaped)
        }
    }

    /// The selection as a template value (a sub-expression: `{{#each (xPath request.body '/a/b')}}`):
    /// WireMock's `ListOrSingle<XmlNode>`, each node with its `name`, `text` and `attributes`, one
    /// node rendering as that node; "" when nothing is selected; the error text as a string.
    func value(_ body: String, budget: inout StubBudget) -> Result<TemplateValue, StubRenderFailure> {
        switch select(body, budget: &budget) {
        case .text(let text): return .success(.string(text))
        case .failure(let failure): return .failure(failure)
        case .nodes(let document, let nodes):
            if nodes.isEmpty { return .success(.string("")) }
            var items: [TemplateValue] = []
            items.reserveCapacity(nodes.count)
            for n in nodes {
                let node = TemplateXMLNode(document, n, budget: &budget)
                if budget.exhausted { return .failure(.overBudget("the template's xPath \(written ?? "")")) }
                items.append(.xml(node))
            }
            return .success(.list(items, .listOrSingle))
        }
    }
}

/// One node `xPath` selected, as WireMock's `XmlNode` shows it to a template: `name` (DOM's
/// `getNodeName`: `th:thing`, `#text`), `text` (`getTextContent`), `attributes` (by name, as the
/// DOM's attribute map orders them, namespace declarations included), and its `toString()`.
struct TemplateXMLNode {
    let name: String
    let text: String
    let rendered: String
    let attributes: [(key: String, value: String)]

    init(_ document: XMLDocument, _ n: Int, budget: inout StubBudget) {
        let node = document[n]
        switch node.kind {
        case .element, .attribute, .processingInstruction: name = node.name
        case .text: name = node.isCData ? "#cdata-section" : "#text"
        case .comment: name = "#comment"
        case .document: name = "#document"
        }
        text = document.stringValue(n, budget: &budget)
        rendered = document.text(of: n, budget: &budget)
        var attributes: [(key: String, value: String)] = []
        if node.kind == .element {
            for declaration in node.declarations {
                attributes.append((key: declaration.prefix.isEmpty ? "xmlns" : "xmlns:" + declaration.prefix, value: declaration.uri))
            }
            for a in node.attributes { attributes.append((key: document[a].name, value: document[a].value)) }
            attributes.sort { $0.key < $1.key }
        }
        self.attributes = attributes
    }

    /// `node.key`, as handlebars.java reads `XmlNode`'s getters.
    func child(_ key: String) -> TemplateValue {
        switch key {
        case "name": return .string(name)
        case "text": return .string(text)
        case "attributes": return .map(attributes.map { (key: $0.key, value: TemplateValue.string($0.value)) }, json: false)
        default: return .null
        }
    }
}
