/// `equalToXml`, as WireMock 2.35's `EqualToXmlPattern` answers it (XMLUnit 2.9 with whitespace
/// and comments ignored, children paired by name in any order, its difference evaluator and
/// placeholders). What that combination does, read from WireMock's answers:
/// - element names compare by local name (prefixes differ freely); a namespace URI is compared
///   only where the expected element is unprefixed under a default namespace (`xmlns="…"`);
/// - attributes compare by written name and value, namespace declarations aside;
/// - text is trimmed; comments are dropped and the text around them joins;
/// - same-named siblings pair in document order; an element with two or more children of which
///   one is not an element (mixed content, or a processing instruction beside the root) never
///   matches (XMLUnit's order-invariant matcher fails on it in WireMock).
struct XMLEquality: Sendable {
    let expected: XMLDocument
    /// Placeholders of the expected text and attribute values, by node (with `enablePlaceholders`).
    let placeholders: [Int: Placeholder]
    let exempted: Set<String>

    enum Placeholder: Sendable {
        case ignore, isNumber
        case matchesRegex(StubRegex)
    }

    static let comparisonTypes: Set<String> = [
        "ATTR_VALUE_EXPLICITLY_SPECIFIED", "HAS_DOCTYPE_DECLARATION", "DOCTYPE_NAME", "DOCTYPE_PUBLIC_ID", "DOCTYPE_SYSTEM_ID",
        "SCHEMA_LOCATION", "NO_NAMESPACE_SCHEMA_LOCATION", "NODE_TYPE", "NAMESPACE_PREFIX", "NAMESPACE_URI", "TEXT_VALUE",
        "PROCESSING_INSTRUCTION_TARGET", "PROCESSING_INSTRUCTION_DATA", "ELEMENT_TAG_NAME", "ELEMENT_NUM_ATTRIBUTES",
        "ATTR_VALUE", "CHILD_NODELIST_LENGTH", "CHILD_NODELIST_SEQUENCE", "CHILD_LOOKUP", "ATTR_NAME_LOOKUP",
        "XML_VERSION", "XML_STANDALONE", "XML_ENCODING",
    ]

    /// Reads the expected document and its placeholders; a problem is named at `pointer`.
    init(_ text: String, placeholders enabled: Bool, opening: String?, closing: String?, exempted: Set<String>,
         at pointer: String) throws(StubProblem) {
        do {
            expected = try XMLParser.parse(text)
        } catch {
            var problem = StubProblem(pointer, "\"equalToXml\" is not XML WireMock would read: \(error.description)")
            // WireMock refuses it too (in its XML parser's words, not reproduced here).
            problem.wireMockAlsoRefuses = true
            throw problem
        }
        self.exempted = exempted
        var found: [Int: Placeholder] = [:]
        if enabled {
            let openText = opening.flatMap { $0.trimmingJavaWhitespace().isEmpty ? nil : $0 } ?? "\\$\\{"
            let closeText = closing.flatMap { $0.trimmingJavaWhitespace().isEmpty ? nil : $0 } ?? "\\}"
            if let open = try? StubRegex("\\s*(?:" + openText + ")\\s*", at: pointer),
               let close = try? StubRegex("\\s*(?:" + closeText + ")\\s*", at: pointer) {
                for (i, node) in expected.nodes.enumerated() where node.kind == .text || node.kind == .attribute {
                    if let p = try XMLEquality.placeholder(in: node.value, open: open, close: close, at: pointer) { found[i] = p }
                }
            } else {
                // XMLUnit compiles the delimiters inside one pattern: "[" and "]" there make a
                // character class, valid but never a placeholder. Anything else that does not
                // compile is refused.
                _ = try StubRegex("(\\s*" + openText + "\\s*xmlunit\\.(.+)\\s*" + closeText + "\\s*)", at: pointer + "/placeholderOpeningDelimiterRegex")
            }
        }
        placeholders = found
    }

    /// `${xmlunit.keyword(args)}` filling the whole (trimmed) text, as XMLUnit's evaluator finds it.
    private static func placeholder(in text: String, open: StubRegex, close: StubRegex, at pointer: String) throws(StubProblem) -> Placeholder? {
        let trimmed = text.trimmingJavaWhitespace()
        guard let mark = trimmed.firstRange(of: "xmlunit."), open.matchesWhole(String(trimmed[..<mark.lowerBound])) else { return nil }
        // The content is greedy: the closing delimiter is the shortest tail that matches.
        let rest = trimmed[mark.upperBound...]
        var cut = rest.endIndex
        var content: Substring?
        while cut > rest.startIndex {
            cut = rest.index(before: cut)
            if close.matchesWhole(String(rest[cut...])) { content = rest[..<cut] }
            if content != nil { break }
        }
        guard let body = content?.trimmingJavaWhitespace(), !body.isEmpty else { return nil }
        var keyword = body, args = ""
        if let paren = body.firstIndex(of: "("), body.hasSuffix(")") {
            keyword = body[..<paren].trimmingJavaWhitespace()
            args = String(body[body.index(after: paren)..<body.index(before: body.endIndex)])
        }
        switch keyword {
        case "ignore": return .ignore
        case "isNumber": return .isNumber
        case "matchesRegex": return .matchesRegex(try StubRegex(args.trimmingJavaWhitespace(), at: pointer + "/equalToXml"))
        case "isDateTime": throw StubProblem(pointer + "/equalToXml", "the ${xmlunit.isDateTime} placeholder is not supported (ignore, isNumber and matchesRegex are)")
        default: return nil
        }
    }

    private func counts(_ type: String) -> Bool { !exempted.contains(type) }

    /// Whether a placeholder on expected node `c` accepts `actual` (nil: the node is missing).
    private func accepts(_ c: Int, _ actual: String?) -> Bool {
        switch placeholders[c] {
        case .ignore?: return true
        case .isNumber?:
            guard let actual else { return false }
            return Double(actual.trimmingJavaWhitespace()) != nil
        case .matchesRegex(let regex)?:
            guard let actual else { return false }
            return regex.matchesWhole(actual.trimmingJavaWhitespace())
        case nil: return false
        }
    }

    /// Whether `text` is XML equal to the expected document; out of budget is "no".
    func matches(_ text: String, budget: inout StubBudget) -> Bool {
        guard !text.isEmpty, let actual = try? XMLParser.parse(text) else { return false }
        var pairs = [(0, 0)]
        while let (c, t) = pairs.popLast() {
            guard budget.spend() else { return false }
            guard let more = compare(c, actual, t) else { return false }
            pairs.append(contentsOf: more)
        }
        return true
    }

    /// Compares one pair; nil on a difference, else the child pairs still to compare.
    private func compare(_ c: Int, _ actual: XMLDocument, _ t: Int) -> [(Int, Int)]? {
        let cn = expected[c], tn = actual[t]
        if cn.kind != tn.kind { return counts("NODE_TYPE") ? nil : [] }
        switch cn.kind {
        case .text:
            let a = cn.value.trimmingJavaWhitespace(), b = tn.value.trimmingJavaWhitespace()
            return a == b || !counts("TEXT_VALUE") || accepts(c, b) ? [] : nil
        case .processingInstruction:
            if counts("PROCESSING_INSTRUCTION_TARGET") && cn.name != tn.name { return nil }
            if counts("PROCESSING_INSTRUCTION_DATA") && cn.value != tn.value { return nil }
            return []
        case .element:
            if counts("ELEMENT_TAG_NAME") && cn.localName != tn.localName { return nil }
            if counts("NAMESPACE_URI"), cn.prefix.isEmpty, let uri = cn.namespace, uri != tn.namespace { return nil }
            guard attributesMatch(c, actual, t) else { return nil }
            return children(c, actual, t)
        default:
            return children(c, actual, t)
        }
    }

    private func attributesMatch(_ c: Int, _ actual: XMLDocument, _ t: Int) -> Bool {
        let ca = expected[c].attributes, ta = actual[t].attributes
        var testByName: [String: Int] = [:]
        for a in ta { testByName[actual[a].name] = a }
        var matched = 0
        for a in ca {
            let name = expected[a].name
            guard let other = testByName[name] else {
                if counts("ATTR_NAME_LOOKUP") && !accepts(a, nil) { return false }
                continue
            }
            matched += 1
            if counts("ATTR_VALUE") && expected[a].value != actual[other].value && !accepts(a, actual[other].value) { return false }
        }
        // A different count is forgiven only when the missing ones are placeholders and nothing is extra.
        if counts("ELEMENT_NUM_ATTRIBUTES") && ca.count != ta.count && matched != ta.count { return false }
        return true
    }

    /// Content without comments and whitespace-only text (the DOCTYPE is never kept), with the
    /// text of a run of text nodes joined across the comments between them: one pass.
    private static func content(_ doc: XMLDocument, _ n: Int) -> [(node: Int, text: String)] {
        var out: [(node: Int, text: String)] = []
        var run: (node: Int, text: String)?
        func flush() {
            if let r = run, !r.text.isJavaBlank { out.append(r) }
            run = nil
        }
        for c in doc[n].children {
            switch doc[c].kind {
            case .comment: continue
            case .text:
                if run == nil { run = (c, "") }
                run?.text += doc[c].value
            default:
                flush()
                out.append((c, ""))
            }
        }
        flush()
        return out
    }

    private func children(_ c: Int, _ actual: XMLDocument, _ t: Int) -> [(Int, Int)]? {
        let cContent = XMLEquality.content(expected, c), tContent = XMLEquality.content(actual, t)
        let cc = cContent.map(\.node), tc = tContent.map(\.node)
        var testText: [Int: String] = [:]
        for item in tContent where actual[item.node].kind == .text { testText[item.node] = item.text }
        // WireMock's order-invariant matcher sorts by local name, which fails on a list of two
        // or more that holds a text or instruction node: such content never matches there.
        func sortable(_ doc: XMLDocument, _ list: [Int]) -> Bool { list.count < 2 || list.allSatisfy { doc[$0].kind == .element } }
        guard sortable(expected, cc), sortable(actual, tc) else { return nil }
        if cc.count != tc.count && counts("CHILD_NODELIST_LENGTH") {
            // A lone placeholder text may stand for missing content.
            guard cc.count == 1, expected[cc[0]].kind == .text, tc.isEmpty,
                  accepts(cc[0], nil) else { return nil }
            return []
        }
        // Same-named siblings pair in document order: a queue per name keeps this linear.
        func key(_ doc: XMLDocument, _ n: Int) -> String {
            switch doc[n].kind {
            case .element: return "e:" + doc[n].localName
            case .text: return "#text"
            default: return "#pi"
            }
        }
        var queues: [String: (items: [Int], next: Int)] = [:]
        for y in tc { queues[key(actual, y), default: ([], 0)].items.append(y) }
        var pairs: [(Int, Int)] = []
        for (x, expectedText) in cContent {
            let node = expected[x]
            let k = key(expected, x)
            var partner: Int?
            if let q = queues[k], q.next < q.items.count {
                partner = q.items[q.next]
                queues[k]?.next += 1
            }
            guard let y = partner else {
                if node.kind == .text && accepts(x, nil) { continue }
                if counts("CHILD_LOOKUP") { return nil }
                continue
            }
            if node.kind == .text {
                let a = expectedText.trimmingJavaWhitespace()
                let b = (testText[y] ?? "").trimmingJavaWhitespace()
                if a != b && counts("TEXT_VALUE") && !accepts(x, b) { return nil }
                continue
            }
            pairs.append((x, y))
        }
        return pairs
    }
}

extension StringProtocol {
    /// Java's `String.trim()`: every character up to U+0020 at either end (the templates' helpers
    /// and the XML matchers both use it).
    func trimmingJavaWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0.value > 0x20 }), let end = scalars.lastIndex(where: { $0.value > 0x20 }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }

    var isJavaBlank: Bool { unicodeScalars.allSatisfy { $0.value <= 0x20 } }
}
