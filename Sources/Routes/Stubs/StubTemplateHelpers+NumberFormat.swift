/// handlebars.java's `numberFormat` (StringHelpers) as WireMock 2.35 bundles it.
extension StubTemplateRenderer {
    mutating func numberFormat(_ context: TemplateValue, _ params: [TemplateValue], _ hash: [String: TemplateValue]) -> TemplateValue {
        let number = materialize(context)
        switch number {
        case .int, .double: break
        // Not a number: handlebars.java answers the first parameter (or nothing).
        default: return .string(params.first.map { $0.javaText } ?? "")
        }
        var format: String?
        if let first = params.first {
            guard case .string(let text) = first else { fail(.invalid("numberFormat: the format must be a string, not \(first.javaText)")); return .null }
            format = text
        }
        var locale = "en"
        if params.count > 1 {
            locale = params[1].javaText
            guard StubNumberFormat.isJavaLocaleName(locale) else { fail(.invalid("numberFormat: '\(locale)' is not a locale name (language_COUNTRY)")); return .null }
        }
        var f: StubNumberFormat
        switch StubNumberFormat.make(format, locale: locale) {
        case .success(let made): f = made
        case .failure(let error): fail(.invalid(error.message)); return .null
        }
        for key in ["groupingUsed", "maximumFractionDigits", "maximumIntegerDigits", "minimumFractionDigits", "minimumIntegerDigits", "roundingMode"] {
            guard let value = hash[key] else { continue }
            switch (key, value) {
            case ("groupingUsed", .bool(let b)): f.grouping = b
            case ("maximumFractionDigits", .int(let n)): f.setMaxFrac(n)
            case ("maximumIntegerDigits", .int(let n)): f.setMaxInt(n)
            case ("minimumFractionDigits", .int(let n)): f.setMinFrac(n)
            case ("minimumIntegerDigits", .int(let n)): f.setMinInt(n)
            case ("roundingMode", .string(let s)):
                guard let mode = StubNumberFormat.Rounding(rawValue: s) else {
                    fail(.invalid("numberFormat: roundingMode '\(s)' is none of " + StubNumberFormat.Rounding.allCases.map(\.rawValue).joined(separator: ", ")))
                    return .null
                }
                f.rounding = mode
            default:
                fail(.invalid("numberFormat: \(key)=\(value.javaText) has the wrong type"))
                return .null
            }
        }
        guard let text = f.format(number) else {
            fail(.invalid("numberFormat: roundingMode UNNECESSARY but \(number.javaText) needs rounding"))
            return .null
        }
        return .string(text)
    }
}

extension StubNumberFormat {
    /// commons-lang's `LocaleUtils.toLocale` shape: `ll`, `ll_CC` (or empty for ROOT).
    static func isJavaLocaleName(_ s: String) -> Bool {
        if s.isEmpty { return true }
        let parts = s.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count <= 3, (2...3).contains(parts[0].count), parts[0].allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
        if parts.count >= 2 { guard parts[1].count == 2, parts[1].allSatisfy({ $0.isASCII && $0.isUppercase }) else { return false } }
        return true
    }
}
