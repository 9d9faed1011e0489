import HTTPServer

/// A response template (`"transformers": ["response-template"]`): WireMock 2.35's Handlebars,
/// parsed when the mapping is read (a helper this server lacks is refused then, by name) and
/// rendered per request into the capped buffer.
struct StubTemplate: Sendable {
    enum Part: Sendable {
        case text(String)
        case nodes([TemplateNode])
    }

    let parts: [Part]
    /// The text of a template with no `{{…}}` left (a mapping not templated, or plain text):
    /// what rendering returns, without a renderer (a `bodyFileName` stub's name and headers
    /// are read on every request).
    let plainText: String?
    /// A template with no `{{`: rendering returns the text as it is.
    var isPlain: Bool { plainText != nil }

    /// The joined text when every part is text.
    static func plainText(of parts: [Part]) -> String? {
        var text = ""
        for part in parts {
            guard case .text(let piece) = part else { return nil }
            text += piece
        }
        return text
    }

    /// As WireMock's HandlebarsOptimizedTemplate: the text before the first `{{` and after the
    /// last `}}` is kept as it is; only what lies between is Handlebars.
    init(_ text: String, at pointer: String) throws(StubProblem) {
        guard let open = text.firstRange(of: "{{"), let close = StubTemplate.lastClose(text), close.lowerBound >= open.lowerBound else {
            parts = [.text(text)]
            plainText = text
            return
        }
        var parts: [Part] = []
        if open.lowerBound > text.startIndex { parts.append(.text(String(text[..<open.lowerBound]))) }
        let nodes = try StubTemplateParser.parse(String(text[open.lowerBound..<close.upperBound]), at: pointer)
        if nodes.allSatisfy({ if case .text = $0 { return true } else { return false } }) {
            parts.append(.text(nodes.map { if case .text(let t) = $0 { return t } else { return "" } }.joined()))
        } else {
            parts.append(.nodes(nodes))
        }
        if close.upperBound < text.endIndex { parts.append(.text(String(text[close.upperBound...]))) }
        self.parts = parts
        plainText = StubTemplate.plainText(of: parts)
    }

    /// Java's `lastIndexOf("}}")`: the last pair, overlapping ones counted (`}}}` ends a triple).
    private static func lastClose(_ text: String) -> Range<String.Index>? {
        var i = text.endIndex
        while i > text.startIndex {
            let before = text.index(before: i)
            if text[before] == "}", before > text.startIndex, text[text.index(before: before)] == "}" { return text.index(before: before)..<i }
            i = before
        }
        return nil
    }

    /// The bytes for one request, stopped at `limit` bytes while rendering (a template of
    /// many `{{{request.body}}}` never builds more than the cap).
    func render(_ scope: inout StubRenderScope, limit: Int) throws(StubRenderFailure) -> [UInt8] {
        if let plainText, plainText.utf8.count <= limit { return Array(plainText.utf8) }
        var renderer = StubTemplateRenderer(scope: scope, limit: limit, parameters: scope.parameters)
        for part in parts {
            switch part {
            case .text(let text): renderer.out.append(text)
            case .nodes(let nodes): renderer.render(nodes)
            }
            if let failure = renderer.failure ?? renderer.out.failure {
                scope = renderer.scope
                throw failure
            }
        }
        scope = renderer.scope
        return renderer.out.bytes
    }
}

extension StubTemplate {
    /// The template's text outside `{{…}}`, joined: what a templated `bodyFileName` is checked by
    /// when read (its rendered path is checked again when served).
    var literalText: String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .nodes(let nodes): return nodes.map { if case .text(let t) = $0 { return t } else { return "" } }.joined()
            }
        }.joined()
    }
}
