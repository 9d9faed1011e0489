import HTTPServer

/// A JSON value's canonical text for `equalToJson` with `ignoreArrayOrder`: members by name
/// (the last of a repeated name), array elements sorted, numbers by value. Two values with the
/// same form are equal in any array order, both ways round.
enum JSONCanonical {
    /// The form, or nil when the budget ran out.
    static func form(_ value: JSONValue, budget: inout StubBudget) -> [UInt8]? {
        var out: [UInt8] = []
        return write(value, into: &out, budget: &budget) ? out : nil
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], budget: inout StubBudget) -> Bool {
        guard budget.spend() else { return false }
        switch value {
        case .array(let items):
            var forms: [[UInt8]] = []
            forms.reserveCapacity(items.count)
            for item in items {
                guard let form = form(item, budget: &budget) else { return false }
                forms.append(form)
            }
            forms.sort { $0.lexicographicallyPrecedes($1) }
            out.append(UInt8(ascii: "["))
            for (i, form) in forms.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: form)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            var last: [String: Int] = [:]
            for (i, member) in members.enumerated() { last[member.key] = i }
            out.append(UInt8(ascii: "{"))
            for (n, (key, i)) in last.sorted(by: { $0.key < $1.key }).enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                guard write(members[i].value, into: &out, budget: &budget) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        default:
            // -0 and 0 are one number (numberText writes both as 0), as == has them.
            value.appendJSON(to: &out)
        }
        // Texts are copied once per level they sit under: the bytes count too.
        return budget.spend(out.count / 64)
    }
}
