/// A parsed Handlebars template: what `StubTemplateParser` builds once per mapping and
/// `StubTemplateRenderer` walks per request.
indirect enum TemplateNode: Sendable {
    case text(String)
    /// `{{…}}` (HTML-escaped) or `{{{…}}}` / `{{& …}}` (as it is).
    case mustache(TemplateCall, escaped: Bool)
    /// `{{#name …}}body{{else}}inverse{{/name}}`; `{{else if …}}` is an inverse holding one block.
    case block(TemplateCall, body: [TemplateNode], inverse: [TemplateNode]?)
}

/// A helper call or a value: `head param… key=value…`.
struct TemplateCall: Sendable {
    var head: TemplateExpr
    var params: [TemplateExpr]
    var hash: [(key: String, value: TemplateExpr)]
    /// The helper `head` names, when it names one (decided when parsed).
    var helper: String?
    /// `as |item key|`: names for a block's value and its index or key.
    var blockParams: [String] = []

    func hashValue(_ key: String) -> TemplateExpr? { hash.first { $0.key == key }?.value }
}

indirect enum TemplateExpr: Sendable {
    case path(TemplatePath)
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case sub(TemplateCall)

    /// The literal's text, for names given as literals (`'parts'`, `'+'`).
    var literalText: String? {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        default: return nil
        }
    }
}

/// `a.b.[0]`, `this`, `../x`, `@index`.
struct TemplatePath: Sendable {
    /// How many `../` it starts with.
    var up: Int
    /// `@index`, `@key`…: a block's data, not the context.
    var data: Bool
    /// The names after `this` / `../`; empty for `this` itself.
    var segments: [String]
    var source: String
}
