import HTTPServer

/// How Java prints and reads the values Jayway hands WireMock: `BigDecimal` texts, `Double`s
/// from aggregate functions ("3.0"), and `toString()` of what a list holds.
enum JSONPathValues {
    /// `new BigDecimal(text)`: an optional sign, digits with at most one point, an optional
    /// exponent; nil where Java throws NumberFormatException.
    static func javaDecimal(_ text: String) -> Double? {
        var s = Substring(text)
        if s.first == "+" || s.first == "-" { s = s.dropFirst() }
        var digits = 0, points = 0
        while let ch = s.first, ch.isASCII, ch.isNumber || ch == "." {
            if ch == "." { points += 1 } else { digits += 1 }
            s = s.dropFirst()
        }
        guard digits > 0, points <= 1 else { return nil }
        if let e = s.first, e == "e" || e == "E" {
            s = s.dropFirst()
            if s.first == "+" || s.first == "-" { s = s.dropFirst() }
            guard !s.isEmpty, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            s = s.dropFirst(s.count)
        }
        guard s.isEmpty else { return nil }
        return Double(text)
    }

    /// `Double.toString`: at least one decimal ("3.0"), scientific outside [1e-3, 1e7).
    static func javaDouble(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        let magnitude = abs(d)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            let text = "\(d)"
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        }
        // Java writes d.dddE±x from the shortest digits, which Swift's description has too.
        let (digits, exponent) = decimalDigits(magnitude)
        let rest = digits.dropFirst()
        return (d < 0 ? "-" : "") + String(digits.prefix(1)) + "." + (rest.isEmpty ? "0" : String(rest)) + "E" + String(exponent)
    }

    /// The shortest digits of a positive double and the power of ten of the first one.
    private static func decimalDigits(_ d: Double) -> (String, Int) {
        let text = "\(d)"
        var mantissa = Substring(text), exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(String(text[text.index(after: e)...].filter { $0 != "+" })) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? "", fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        var point = whole.count
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        if digits.isEmpty { digits = "0" }
        return (digits, point - 1 + exponent)
    }

    /// What Java's `toString()` gives for a value Jayway read: strings bare, whole numbers as
    /// integers (doubles as `javaDouble` when `doubles`), objects as `{a=1, b=x}` (a Map's
    /// form), arrays as compact JSON (json-smart's JSONArray); nil for null.
    static func javaString(_ value: JSONValue, doubles: Bool) -> String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return doubles ? javaDouble(d) : JSONValue.numberText(d)
        case .array: return value.jsonText
        case .object(let members):
            return "{" + members.map { $0.key + "=" + (javaString($0.value, doubles: false) ?? "null") }.joined(separator: ", ") + "}"
        }
    }
}
