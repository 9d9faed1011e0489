/// A node as WireMock prints it (`XmlNode.toString()`): text and attributes as their value; an
/// element as Java's indenting Transformer writes it (2 spaces, no declaration), which is what a
/// sub-matcher of `matchesXPath` and the `xPath` helper see.
extension XMLDocument {
    func text(of n: Int, budget: inout StubBudget) -> String {
        let node = nodes[n]
        switch node.kind {
        case .text, .attribute: return node.value
        case .comment: return "[#comment: \(node.value)]"
        case .processingInstruction: return "[\(node.name): \(node.value)]"
        case .element, .document:
            var out = ""
            render(n, into: &out, budget: &budget)
            return out + "\n"
        }
    }

    /// Writes the subtree without recursion (an explicit stack of work).
    func render(_ start: Int, into out: inout String, budget: inout StubBudget) {
        /// `own`: the node starts its own line (a child in element content).
        enum Work { case open(Int, depth: Int, ownLine: Bool), close(Int, depth: Int) }
        var stack: [Work] = []
        if nodes[start].kind == .document {
            for c in nodes[start].children.reversed() where nodes[c].kind == .element { stack.append(.open(c, depth: 0, ownLine: false)) }
        } else {
            stack.append(.open(start, depth: 0, ownLine: false))
        }
        func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }
        while let work = stack.popLast() {
            guard budget.spend() else { return }
            switch work {
            case .close(let n, let depth):
                out += "\n" + indent(depth) + "</" + nodes[n].name + ">"
            case .open(let n, let depth, let ownLine):
                let node = nodes[n]
                if ownLine { out += "\n" + indent(depth) }
                switch node.kind {
                case .text:
                    // In element content a text child loses one leading newline (the indentation
                    // stands for it), as the JDK's serializer writes it.
                    let value = ownLine && node.value.hasPrefix("\n") ? String(node.value.dropFirst()) : node.value
                    out += node.isCData ? "<![CDATA[" + value + "]]>" : XMLDocument.escape(value, attribute: false)
                case .comment: out += "<!--" + node.value + "-->"
                case .processingInstruction: out += "<?" + node.name + (node.value.isEmpty ? "" : " " + node.value) + "?>"
                case .element:
                    out += "<" + node.name
                    for (prefix, uri) in node.declarations {
                        out += " " + (prefix.isEmpty ? "xmlns" : "xmlns:" + prefix) + "=\"" + XMLDocument.escape(uri, attribute: true) + "\""
                    }
                    for a in node.attributes.sorted(by: { nodes[$0].name < nodes[$1].name }) {
                        out += " " + nodes[a].name + "=\"" + XMLDocument.escape(nodes[a].value, attribute: true) + "\""
                    }
                    if node.children.isEmpty {
                        out += "/>"
                    } else if node.children.allSatisfy({ nodes[$0].kind == .text }) {
                        out += ">"
                        for c in node.children {
                            let t = nodes[c]
                            out += t.isCData ? "<![CDATA[" + t.value + "]]>" : XMLDocument.escape(t.value, attribute: false)
                        }
                        out += "</" + node.name + ">"
                    } else {
                        out += ">"
                        stack.append(.close(n, depth: depth))
                        for c in node.children.reversed() { stack.append(.open(c, depth: depth + 1, ownLine: true)) }
                    }
                default: break
                }
            }
        }
    }

    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">" where !attribute: out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
