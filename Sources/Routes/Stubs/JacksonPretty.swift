import HTTPServer

/// JSON as WireMock's Jackson pretty printer writes it (what `jsonPath` gives for an object),
/// written straight into the answer so its indentation cannot grow past the cap.
enum JacksonPretty {
    static func write(_ value: JSONValue, into out: inout StubRenderBuffer, escaped: Bool, indent: Int = 0) {
        guard out.failure == nil else { return }
        switch value {
        case .object(let members):
            if members.isEmpty { return out.append("{ }", escaped: escaped) }
            let pad = String(repeating: "  ", count: indent + 1)
            out.append("{\n")
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(",\n") }
                out.append(pad)
                out.append(JSONValue.string(member.key).jsonText + " : ", escaped: escaped)
                write(member.value, into: &out, escaped: escaped, indent: indent + 1)
                if out.failure != nil { return }
            }
            out.append("\n" + String(repeating: "  ", count: indent) + "}")
        case .array(let items):
            if items.isEmpty { return out.append("[ ]") }
            out.append("[ ")
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(", ") }
                write(item, into: &out, escaped: escaped, indent: indent)
                if out.failure != nil { return }
            }
            out.append(" ]")
        default:
            out.append(value.jsonText, escaped: escaped)
        }
    }
}
