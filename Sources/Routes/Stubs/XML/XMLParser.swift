/// Why a text is not XML we read (the matcher then answers "no match"; a mapping's own XML is refused).
struct XMLSyntaxError: Error, Sendable, CustomStringConvertible {
    let description: String
}

/// A small non-validating XML 1.0 reader: elements, attributes, namespaces, text, CDATA,
/// comments, processing instructions, the five predefined entities and character references.
/// A DOCTYPE is skipped, never read: its entity declarations are not applied and nothing external
/// is fetched, so an entity that is not predefined is an error (no XXE, no expansion bombs).
/// Iterative, with a depth cap: no input can make it recurse or run more than linear time.
enum XMLParser {
    /// Elements nested deeper than this are refused (far beyond any SOAP envelope).
    static let maxDepth = 256

    static func parse(_ text: String) throws(XMLSyntaxError) -> XMLDocument {
        var reader = Reader(bytes: Array(text.utf8))
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var nodes: [XMLDocument.Node] = [XMLDocument.Node(kind: .document, name: "", value: "", namespace: nil, parent: 0)]
        /// Prefix ("" for the default namespace) → the URIs bound to it, innermost last.
        var scope: [String: [String]] = [:]

        init(bytes: [UInt8]) { self.bytes = bytes }

        func fail(_ why: String) -> XMLSyntaxError {
            XMLSyntaxError(description: "\(why) (at byte \(at))")
        }

        func peek(_ s: String) -> Bool {
            let u = Array(s.utf8)
            guard at + u.count <= bytes.count else { return false }
            for (k, b) in u.enumerated() where bytes[at + k] != b { return false }
            return true
        }

        mutating func skipSpace() {
            while at < bytes.count, XMLParser.isSpace(bytes[at]) { at += 1 }
        }

        /// Moves past the next `end`; the bytes before it as text.
        mutating func until(_ end: String, what: String) throws(XMLSyntaxError) -> String {
            let start = at
            while at < bytes.count {
                if bytes[at] == end.utf8.first, peek(end) {
                    let text = XMLParser.string(bytes[start..<at])
                    at += end.utf8.count
                    return text
                }
                at += 1
            }
            throw fail("\(what) is not closed by \"\(end)\"")
        }

        mutating func name() throws(XMLSyntaxError) -> String {
            let start = at
            while at < bytes.count, XMLParser.isNameByte(bytes[at], first: at == start) { at += 1 }
            guard at > start else { throw fail("a name is expected") }
            return XMLParser.string(bytes[start..<at])
        }

        mutating func add(_ node: XMLDocument.Node) -> Int {
            nodes.append(node)
            let i = nodes.count - 1
            if node.kind == .attribute { nodes[node.parent].attributes.append(i) } else { nodes[node.parent].children.append(i) }
            return i
        }

        mutating func document() throws(XMLSyntaxError) -> XMLDocument {
            if peek("\u{FEFF}") { at += 3 }
            if peek("<?xml") && at + 5 < bytes.count && XMLParser.isSpace(bytes[at + 5]) {
                _ = try until("?>", what: "the XML declaration")
            }
            var open: [Int] = []
            var sawRoot = false
            while at < bytes.count {
                let current = open.last ?? 0
                if bytes[at] != UInt8(ascii: "<") {
                    let text = try characterData(stopAt: UInt8(ascii: "<"))
                    if open.isEmpty {
                        guard text.utf8.allSatisfy(XMLParser.isSpace) else { throw fail("Content is not allowed in prolog or after the document element") }
                    } else {
                        appendText(text, to: current, cdata: false)
                    }
                } else if peek("<!--") {
                    at += 4
                    let body = try until("-->", what: "a comment")
                    if body.contains("--") { throw fail("\"--\" is not allowed inside a comment") }
                    _ = add(.init(kind: .comment, name: "", value: body, namespace: nil, parent: current))
                } else if peek("<![CDATA[") {
                    guard !open.isEmpty else { throw fail("CDATA outside the document element") }
                    at += 9
                    appendText(try until("]]>", what: "a CDATA section"), to: current, cdata: true)
                } else if peek("<!DOCTYPE") {
                    guard !sawRoot, open.isEmpty else { throw fail("a DOCTYPE is only allowed before the document element") }
                    try skipDoctype()
                } else if peek("<?") {
                    at += 2
                    let target = try name()
                    if target.lowercased() == "xml" { throw fail("an XML declaration is only allowed at the start") }
                    let data = try until("?>", what: "a processing instruction")
                    _ = add(.init(kind: .processingInstruction, name: target, value: String(data.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }), namespace: nil, parent: current))
                } else if peek("</") {
                    at += 2
                    let closing = try name()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw fail("\">\" expected after </\(closing)") }
                    at += 1
                    guard let top = open.popLast() else { throw fail("</\(closing)> closes nothing") }
                    guard nodes[top].name == closing else { throw fail("<\(nodes[top].name)> is closed by </\(closing)>") }
                    leaveScope(top)
                } else {
                    guard open.isEmpty ? !sawRoot : true else { throw fail("only one document element is allowed") }
                    guard open.count < XMLParser.maxDepth else { throw fail("elements are nested deeper than \(XMLParser.maxDepth)") }
                    at += 1
                    let element = try startTag(parent: current)
                    if open.isEmpty { sawRoot = true }
                    if at >= 2, bytes[at - 2] == UInt8(ascii: "/") { leaveScope(element) } else { open.append(element) }
                }
            }
            guard open.isEmpty else { throw fail("<\(nodes[open[open.count - 1]].name)> is not closed") }
            guard sawRoot else { throw fail("no document element") }
            return XMLDocument(nodes: nodes)
        }

        mutating func appendText(_ text: String, to parent: Int, cdata: Bool) {
            if text.isEmpty { return }
            // Adjacent text joins one node, as a DOM parser builds it (CDATA stays its own node).
            if !cdata, let last = nodes[parent].children.last, nodes[last].kind == .text, !nodes[last].isCData {
                nodes[last].value += text
                return
            }
            var node = XMLDocument.Node(kind: .text, name: "", value: text, namespace: nil, parent: parent)
            node.isCData = cdata
            _ = add(node)
        }

        /// After `<`: the name, attributes and `>` or `/>`; declares its namespaces.
        mutating func startTag(parent: Int) throws(XMLSyntaxError) -> Int {
            let tag = try name()
            let element = add(.init(kind: .element, name: tag, value: "", namespace: nil, parent: parent))
            var seen = Set<String>()
            var pending: [(String, String)] = []
            while true {
                let hadSpace = at < bytes.count && XMLParser.isSpace(bytes[at])
                skipSpace()
                guard at < bytes.count else { throw fail("<\(tag) is not closed") }
                if bytes[at] == UInt8(ascii: ">") { at += 1; break }
                if peek("/>") { at += 2; break }
                guard hadSpace else { throw fail("a space is expected between attributes of <\(tag)>") }
                let attribute = try name()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw fail("\"=\" expected after attribute \(attribute)") }
                at += 1
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { throw fail("attribute \(attribute)'s value must be quoted") }
                let quote = bytes[at]
                at += 1
                let value = try characterData(stopAt: quote, attribute: true)
                at += 1
                guard seen.insert(attribute).inserted else { throw fail("attribute \(attribute) is given twice") }
                pending.append((attribute, value))
            }
            for (attribute, value) in pending {
                if attribute == "xmlns" || attribute.hasPrefix("xmlns:") {
                    let prefix = attribute == "xmlns" ? "" : String(attribute.dropFirst(6))
                    nodes[element].declarations.append((prefix, value))
                    scope[prefix, default: []].append(value)
                }
            }
            nodes[element].namespace = resolve(nodes[element].prefix)
            for (attribute, value) in pending where !(attribute == "xmlns" || attribute.hasPrefix("xmlns:")) {
                let colon = attribute.firstIndex(of: ":")
                let namespace = colon.flatMap { resolve(String(attribute[..<$0])) }
                _ = add(.init(kind: .attribute, name: attribute, value: value, namespace: namespace, parent: element))
            }
            return element
        }

        func resolve(_ prefix: String) -> String? {
            if prefix == "xml" { return "http://www.w3.org/XML/1998/namespace" }
            guard let uri = scope[prefix]?.last, !uri.isEmpty else { return nil }
            return uri
        }

        mutating func leaveScope(_ element: Int) {
            for (prefix, _) in nodes[element].declarations { scope[prefix]?.removeLast() }
        }

        /// Text up to `stop` (not consumed) with references replaced; `\r\n` read as `\n`, and in
        /// an attribute each whitespace character as a space (XML's attribute-value normalisation).
        mutating func characterData(stopAt stop: UInt8, attribute: Bool = false) throws(XMLSyntaxError) -> String {
            var out: [UInt8] = []
            while at < bytes.count, bytes[at] != stop {
                let b = bytes[at]
                if b == UInt8(ascii: "&") {
                    out.append(contentsOf: try reference())
                    continue
                }
                if attribute && b == UInt8(ascii: "<") { throw fail("\"<\" is not allowed in an attribute value") }
                if b == UInt8(ascii: "\r") {
                    at += 1
                    if at < bytes.count, bytes[at] == UInt8(ascii: "\n") { at += 1 }
                    out.append(attribute ? 0x20 : 0x0A)
                    continue
                }
                out.append(attribute && (b == 0x09 || b == 0x0A) ? 0x20 : b)
                at += 1
            }
            if attribute && at >= bytes.count { throw fail("an attribute value is not closed") }
            return XMLParser.string(out[...])
        }

        /// After `&`: one of the five predefined entities or a character reference.
        mutating func reference() throws(XMLSyntaxError) -> [UInt8] {
            at += 1
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: ";"), at - start < 12 { at += 1 }
            guard at < bytes.count, bytes[at] == UInt8(ascii: ";") else { throw fail("\"&\" must start a reference such as &amp;") }
            let body = XMLParser.string(bytes[start..<at])
            at += 1
            switch body {
            case "lt": return [UInt8(ascii: "<")]
            case "gt": return [UInt8(ascii: ">")]
            case "amp": return [UInt8(ascii: "&")]
            case "quot": return [UInt8(ascii: "\"")]
            case "apos": return [UInt8(ascii: "'")]
            default:
                var code: UInt32?
                if body.hasPrefix("#x") { code = UInt32(body.dropFirst(2), radix: 16) } else if body.hasPrefix("#") { code = UInt32(body.dropFirst(), radix: 10) }
                guard let code else { throw fail("entity &\(body); is not declared (DTD entities are not read)") }
                guard let scalar = Unicode.Scalar(code), code == 0x9 || code == 0xA || code == 0xD || code >= 0x20 else {
                    throw fail("&\(body); is not a legal XML character")
                }
                return Array(String(Character(scalar)).utf8)
            }
        }

        /// Moves past `<!DOCTYPE …>` including an internal subset, reading nothing in it.
        mutating func skipDoctype() throws(XMLSyntaxError) {
            at += 9
            var inSubset = false
            var quote: UInt8?
            while at < bytes.count {
                let b = bytes[at]
                at += 1
                if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: "[") {
                    inSubset = true
                } else if b == UInt8(ascii: "]") {
                    inSubset = false
                } else if b == UInt8(ascii: ">") && !inSubset {
                    return
                }
            }
            throw fail("the DOCTYPE is not closed")
        }
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    static func isNameByte(_ b: UInt8, first: Bool) -> Bool {
        if b >= 0x80 { return true }
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"): return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): return !first
        default: return false
        }
    }

    static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
