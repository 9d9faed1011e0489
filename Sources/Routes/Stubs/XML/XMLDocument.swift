/// A parsed XML document: every node in one array, in document order (an element, then its
/// attributes, then its content), so XPath's document order is the index order and no node
/// holds a reference to another.
struct XMLDocument: Sendable {
    enum Kind: Sendable, Equatable {
        case document, element, attribute, text, comment, processingInstruction
    }

    struct Node: Sendable {
        var kind: Kind
        /// The qualified name as written (`soap:Body`) for elements and attributes; the target
        /// for a processing instruction; empty otherwise.
        var name: String
        /// Text, attribute value, comment or instruction data.
        var value: String
        /// The namespace the element's or attribute's prefix (or the default namespace) is bound
        /// to in scope; nil when none (or the prefix is not declared: WireMock reads such XML).
        var namespace: String?
        var parent: Int
        var children: [Int] = []
        /// Attributes other than namespace declarations (`xmlns`, `xmlns:p`).
        var attributes: [Int] = []
        /// Namespace declarations on this element, in source order (prefix "" for the default).
        var declarations: [(prefix: String, uri: String)] = []
        /// Whether a text node came from `<![CDATA[…]]>` (kept when rendered).
        var isCData = false

        var localName: String {
            guard let colon = name.firstIndex(of: ":") else { return name }
            return String(name[name.index(after: colon)...])
        }
        var prefix: String {
            guard let colon = name.firstIndex(of: ":") else { return "" }
            return String(name[..<colon])
        }
    }

    var nodes: [Node]
    /// The document element's index.
    var root: Int { nodes[0].children.first { nodes[$0].kind == .element } ?? 0 }

    subscript(_ i: Int) -> Node { nodes[i] }

    /// XPath's string-value: the text of a node, or of all text below an element or the document.
    func stringValue(_ i: Int, budget: inout StubBudget) -> String {
        switch nodes[i].kind {
        case .element, .document:
            var out = ""
            var stack = [i]
            while let n = stack.popLast() {
                guard budget.spend() else { return out }
                let node = nodes[n]
                if node.kind == .text { out += node.value }
                stack.append(contentsOf: node.children.reversed())
            }
            return out
        default:
            return nodes[i].value
        }
    }

    /// Whether `a` is `b` or below it (attributes count as below their element).
    func isInside(_ a: Int, _ b: Int) -> Bool {
        var n = a
        while true {
            if n == b { return true }
            if n == 0 { return false }
            n = nodes[n].parent
        }
    }
}
