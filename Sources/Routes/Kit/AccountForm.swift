/// One field of a system's account, as the console's account form asks for it.
package struct AccountFormField: Sendable {
    package enum Kind: String, Sendable {
        case text, email, tel, password
        /// A checkbox: sent as `true` when ticked, left out otherwise.
        case flag
    }

    package let name: String
    package let label: String
    package let kind: Kind
    package let required: Bool
    package let placeholder: String

    package init(_ name: String, _ label: String, _ kind: Kind = .text, required: Bool = false, placeholder: String = "") {
        self.name = name
        self.label = label
        self.kind = kind
        self.required = required
        self.placeholder = placeholder
    }
}

/// The console's account form: one set of fields per system that creates accounts (each from
/// the system's own list), shown for the system picked; the others are disabled, so their
/// required fields do not block the form.
package enum AccountForm {
    package static func html(_ systems: [(name: String, fields: [AccountFormField])]) -> String {
        systems.enumerated().map { index, system in
            let inputs = system.fields.map { field in
                let id = "account-\(system.name)-\(field.name)"
                if field.kind == .flag {
                    return "<label class=\"check\" for=\"\(id)\"><input type=\"checkbox\" id=\"\(id)\" name=\"\(escape(field.name))\"> \(escape(field.label))</label>"
                }
                let type = field.kind == .text ? "text" : field.kind.rawValue
                // A test account, not the person's own: no autofill of their e-mail or phone.
                let autocomplete = field.kind == .password ? " autocomplete=\"new-password\"" : field.kind == .text ? " autocomplete=\"off\"" : ""
                return "<label for=\"\(id)\">\(escape(field.label))\(field.required ? "" : " <span class=\"muted\">(optional)</span>")"
                    + "<input id=\"\(id)\" name=\"\(escape(field.name))\" type=\"\(type)\"\(autocomplete)"
                    + "\(field.required ? " required" : "") placeholder=\"\(escape(field.placeholder))\"></label>"
            }.joined()
            let shown = index == 0 ? "" : " hidden disabled"
            return "<fieldset class=\"account-fields\" data-system=\"\(escape(system.name))\" aria-label=\"\(escape(system.name)) account fields\"\(shown)>\(inputs)</fieldset>"
        }.joined()
    }

    package static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
