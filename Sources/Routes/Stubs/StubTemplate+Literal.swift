extension StubTemplate {
    /// The template's text outside `{{…}}`, joined: what a templated `bodyFileName` is checked by
    /// when read (its rendered path is checked again when served).
    var literalText: String {
        parts.map { part in
            if case .text(let text) = part { return text }
            return ""
        }.joined()
    }
}
