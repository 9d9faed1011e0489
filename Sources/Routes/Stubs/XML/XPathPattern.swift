/// `matchesXPath` (with `xPathNamespaces`): the body is XML and the expression selects at least
/// one node, or with a sub-matcher, the text of one selected node (as WireMock prints it) matches.
struct XPathPattern: Sendable {
    let source: String
    /// Nil when the expression does not compile: WireMock accepts such a mapping and never matches it.
    let compiled: XPath?
    let compileError: String?
    let namespaces: [String: String]?

    init(_ source: String, namespaces: [String: String]?) {
        self.source = source
        // WireMock leaves an empty map out: the namespace-unaware reading.
        self.namespaces = namespaces?.isEmpty == false ? namespaces : nil
        do {
            compiled = try XPath(source)
            compileError = nil
        } catch {
            compiled = nil
            compileError = error.description
        }
    }

    /// The texts of the selected nodes; nil when the body is not XML, the expression failed or
    /// the budget ran out (each logged: the request then matches no mapping through this).
    func selectedTexts(_ body: String) -> [String]? {
        guard let compiled else {
            StubWarnings.report("stub matcher matchesXPath \(source) never matches: \(compileError ?? "")")
            return nil
        }
        // As WireMock: a value that does not start with "<" is not read at all.
        guard body.trimmingJavaWhitespace().hasPrefix("<"), let document = try? XMLParser.parse(body) else { return nil }
        var evaluator = XPathEvaluator(document: document, namespaces: namespaces, budget: StubBudget())
        do {
            let nodes = try evaluator.select(compiled)
            var budget = evaluator.budget
            let texts = nodes.map { document.text(of: $0, budget: &budget) }
            if budget.exhausted { StubBudget.reportExhausted("matchesXPath \(source)", bytes: body.utf8.count); return nil }
            return texts
        } catch {
            if evaluator.budget.exhausted { StubBudget.reportExhausted("matchesXPath \(source)", bytes: body.utf8.count) }
            return nil
        }
    }
}

/// The expected document of `equalToXml`, shared by reference (a mapping is copied about).
final class XMLEqualityBox: Sendable {
    let equality: XMLEquality
    init(_ equality: XMLEquality) { self.equality = equality }
}
