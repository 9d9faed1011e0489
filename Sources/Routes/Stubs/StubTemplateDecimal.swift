/// Java's `BigDecimal` as WireMock's `math` helper uses it, for values that fit an `Int`
/// mantissa: the scale of each operand kept, `/` rounded half-up to the left operand's scale.
struct TemplateDecimal {
    var mantissa: Int
    var scale: Int
    /// Set when the operand was no number at all: WireMock reads it as 0.
    var inexact: Double?

    init(_ value: TemplateValue) {
        let text: String
        switch value {
        case .int(let i): mantissa = i; scale = 0; inexact = nil; return
        case .double(let d): text = TemplateValue.javaDouble(d)
        default: text = value.javaText.trimmingJavaWhitespace()
        }
        mantissa = 0; scale = 0; inexact = nil
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") { negative = true; digits = digits.dropFirst() } else if digits.hasPrefix("+") { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !digits.isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let whole = Int(parts[0].isEmpty ? "0" : String(parts[0])) else {
            if let d = Double(text) { inexact = d }
            return
        }
        var m = whole, s = 0
        if parts.count == 2 {
            for c in parts[1] {
                guard let digit = c.wholeNumberValue else { break }
                let (times, o1) = m.multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(digit)
                if o1 || o2 { inexact = Double(text); return }
                m = plus; s += 1
            }
        }
        mantissa = negative ? -m : m
        scale = s
    }

    private var double: Double { inexact ?? Double(mantissa) / pow10(scale) }

    private func pow10(_ n: Int) -> Double { var r = 1.0; for _ in 0..<max(0, n) { r *= 10 }; return r }

    private func rescaled(to s: Int) -> Int? {
        var m = mantissa
        for _ in scale..<max(scale, s) {
            let (r, o) = m.multipliedReportingOverflow(by: 10)
            if o { return nil }
            m = r
        }
        return m
    }

    /// The answer as WireMock reduces it: a whole number for scale 0, else a double.
    func apply(_ op: String, _ other: TemplateDecimal) -> TemplateValue? {
        if inexact != nil || other.inexact != nil { return approximate(op, other) }
        let s = max(scale, other.scale)
        guard let a = rescaled(to: s), let b = other.rescaled(to: s) else { return approximate(op, other) }
        func result(_ m: Int, _ scale: Int) -> TemplateValue { scale == 0 ? .int(m) : .double(Double(m) / pow10(scale)) }
        switch op {
        case "+": let (r, o) = a.addingReportingOverflow(b); return o ? approximate(op, other) : result(r, s)
        case "-": let (r, o) = a.subtractingReportingOverflow(b); return o ? approximate(op, other) : result(r, s)
        case "*", "x":
            let (r, o) = mantissa.multipliedReportingOverflow(by: other.mantissa)
            return o ? approximate(op, other) : result(r, scale + other.scale)
        case "%":
            guard b != 0 else { return nil }
            return result(a % b, s)
        default:
            // divide(right, HALF_UP): the quotient at the left operand's scale.
            guard other.mantissa != 0 else { return nil }
            // a/10^sa ÷ b/10^sb at scale sa = (a · 10^sb) / b.
            guard let num = TemplateDecimal(mantissa: mantissa, scale: 0, inexact: nil).rescaled(to: other.scale) else { return approximate(op, other) }
            let q = num / other.mantissa, r = num % other.mantissa
            let roundsUp = 2 * abs(r) >= abs(other.mantissa)
            let sign = (num < 0) != (other.mantissa < 0) ? -1 : 1
            return result(q + (roundsUp ? sign : 0), scale)
        }
    }

    private init(mantissa: Int, scale: Int, inexact: Double?) {
        self.mantissa = mantissa; self.scale = scale; self.inexact = inexact
    }

    private func approximate(_ op: String, _ other: TemplateDecimal) -> TemplateValue? {
        let a = double, b = other.double
        switch op {
        case "+": return .double(a + b)
        case "-": return .double(a - b)
        case "*", "x": return .double(a * b)
        case "%": return b == 0 ? nil : .double(a.truncatingRemainder(dividingBy: b))
        default: return b == 0 ? nil : .double(a / b)
        }
    }
}
