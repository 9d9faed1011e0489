#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Java's `DecimalFormat` as handlebars.java's `numberFormat` builds it (WireMock 2.35), for the
/// English locales only: styles `integer`, `currency`, `percent`, or a pattern such as `#,##0.00`.
/// Digits come from the shortest decimal form of a double, as Java's `DigitList` reads them.
struct StubNumberFormat {
    enum Rounding: String, CaseIterable { case UP, DOWN, CEILING, FLOOR, HALF_UP, HALF_DOWN, HALF_EVEN, UNNECESSARY }

    var positivePrefix = "", positiveSuffix = "", negativePrefix = "-", negativeSuffix = ""
    var multiplier = 1
    var grouping = true, groupSize = 3
    var minInt = 1, maxInt = 309, minFrac = 0, maxFrac = 3
    var rounding = Rounding.HALF_EVEN
    var alwaysShowPoint = false

    /// Java's digit limits for a double (`DOUBLE_INTEGER_DIGITS`, `DOUBLE_FRACTION_DIGITS`).
    static let integerCap = 309, fractionCap = 340

    /// The currency sign of each locale we have data for; `""` is `Locale.ROOT`.
    static let currencySigns: [String: String] = ["": "¤\u{a0}", "en": "¤", "en_US": "$", "en_GB": "£"]

    /// A style name or a pattern in `locale`; nil with the reason when it is not supported here.
    static func make(_ format: String?, locale: String) -> Result<StubNumberFormat, StubNumberFormatError> {
        guard let sign = currencySigns[locale] else {
            return .failure(.init("numberFormat: locale '\(locale)' has no number data here (only en, en_US, en_GB and '' are built in)"))
        }
        var f = StubNumberFormat()
        let style = format.map { String($0.trimmingASCIISpaces()).uppercased() } ?? ""
        switch style {
        case "", "DEFAULT": break
        case "INTEGER": f.maxFrac = 0
        case "CURRENCY":
            f.minFrac = 2; f.maxFrac = 2; f.positivePrefix = sign; f.negativePrefix = "-" + sign
        case "PERCENT": f.maxFrac = 0; f.multiplier = 100; f.positiveSuffix = "%"; f.negativeSuffix = "%"
        default:
            guard let pattern = format else { break }
            return applyPattern(pattern, to: f)
        }
        return .success(f)
    }

    private static func applyPattern(_ pattern: String, to base: StubNumberFormat) -> Result<StubNumberFormat, StubNumberFormatError> {
        var f = base
        let parts = pattern.split(separator: ";", omittingEmptySubsequences: false)
        func refuse(_ why: String) -> Result<StubNumberFormat, StubNumberFormatError> {
            .failure(.init("numberFormat: pattern '\(pattern)' is not supported here (\(why))"))
        }
        guard parts.count <= 2 else { return refuse("more than one ';'") }
        let numberChars: Set<Character> = ["#", "0", ",", "."]
        func split(_ part: Substring) -> (prefix: String, body: String, suffix: String)? {
            guard let start = part.firstIndex(where: { numberChars.contains($0) }) else { return nil }
            let end = part[start...].firstIndex(where: { !numberChars.contains($0) }) ?? part.endIndex
            let prefix = String(part[..<start]), body = String(part[start..<end]), suffix = String(part[end...])
            guard !(prefix + suffix).contains(where: { numberChars.contains($0) || "'¤‰\u{2030}E;".contains($0) }) else { return nil }
            return (prefix, body, suffix)
        }
        guard let positive = split(parts[0]) else { return refuse("quotes, currency signs, exponents or split digits") }
        let pieces = positive.body.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { return refuse("two decimal points") }
        let intPart = pieces[0], fracPart = pieces.count == 2 ? pieces[1] : ""
        guard !fracPart.contains(","), !(intPart.firstIndex(of: "0").map { intPart[$0...].contains("#") } ?? false),
              !(fracPart.firstIndex(of: "#").map { fracPart[$0...].contains("0") } ?? false) else { return refuse("digits out of order") }
        f.positivePrefix = positive.prefix; f.positiveSuffix = positive.suffix
        f.negativePrefix = "-" + positive.prefix; f.negativeSuffix = positive.suffix
        if parts.count == 2 {
            guard let negative = split(parts[1]) else { return refuse("a negative part without digits") }
            f.negativePrefix = negative.prefix; f.negativeSuffix = negative.suffix
        }
        if (positive.prefix + positive.suffix).contains("%") { f.multiplier = 100 }
        f.minInt = intPart.filter { $0 == "0" }.count
        if let comma = intPart.lastIndex(of: ",") {
            f.groupSize = intPart[intPart.index(after: comma)...].count
            f.grouping = f.groupSize > 0
        } else { f.grouping = false }
        f.minFrac = fracPart.filter { $0 == "0" }.count
        f.maxFrac = fracPart.count
        f.alwaysShowPoint = pieces.count == 2 && fracPart.isEmpty
        f.maxInt = integerCap
        // Java's applyPattern: with no '0' at all, one integer digit is still shown ("#.#" formats 0.5 as 0.5).
        if !positive.body.contains("0") {
            guard !intPart.isEmpty else { return refuse("a pattern starting at its decimal point") }
            f.minInt = 1
        }
        return .success(f)
    }

    /// Java's setters: each keeps min ≤ max by moving the other bound.
    mutating func setMaxFrac(_ n: Int) { maxFrac = min(max(0, n), StubNumberFormat.fractionCap); minFrac = min(minFrac, maxFrac) }
    mutating func setMinFrac(_ n: Int) { minFrac = min(max(0, n), StubNumberFormat.fractionCap); maxFrac = max(maxFrac, minFrac) }
    mutating func setMaxInt(_ n: Int) { maxInt = min(max(0, n), StubNumberFormat.integerCap); minInt = min(minInt, maxInt) }
    mutating func setMinInt(_ n: Int) { minInt = min(max(0, n), StubNumberFormat.integerCap); maxInt = max(maxInt, minInt) }

    /// The formatted value, or nil when `UNNECESSARY` rounding would have to round.
    func format(_ value: TemplateValue) -> String? {
        var negative: Bool, digits: [UInt8], point: Int
        var exactDouble: Double?
        switch value {
        case .int(let i):
            let (product, overflow) = i.multipliedReportingOverflow(by: multiplier)
            if overflow { return format(.double(Double(i) * Double(multiplier))) }
            negative = product < 0
            digits = Array(String(product.magnitude).utf8).map { $0 - 48 }
            point = digits.count
        case .double(let raw):
            let d = raw * Double(multiplier)
            guard d.isFinite else { return d.isNaN ? "NaN" : (d < 0 ? negativePrefix : positivePrefix) + "∞" + (d < 0 ? negativeSuffix : positiveSuffix) }
            negative = d < 0 || (d == 0 && d.sign == .minus)
            (digits, point) = StubNumberFormat.shortestDigits(d.magnitude)
            exactDouble = d.magnitude
        default: return nil
        }
        while digits.last == 0 { digits.removeLast() }
        if digits.isEmpty { point = 0 }
        // Round at maxFrac digits after the point.
        let keep = point + maxFrac
        if keep < digits.count {
            let first = keep >= 0 ? digits[keep] : 0
            let rest = digits[(keep >= 0 ? keep + 1 : 0)...].contains { $0 != 0 }
            let any = first != 0 || rest
            let lastKept = keep > 0 ? digits[keep - 1] : 0
            var up: Bool
            switch rounding {
            case .UP: up = any
            case .DOWN: up = false
            case .CEILING: up = any && !negative
            case .FLOOR: up = any && negative
            case .UNNECESSARY: if any { return nil }; up = false
            case .HALF_UP, .HALF_DOWN, .HALF_EVEN:
                if first > 5 || (first == 5 && rest) { up = true } else if first < 5 { up = false } else {
                    // A tie in the shortest digits: the double's exact value decides, as in Java 8+.
                    let side = exactDouble.map { StubNumberFormat.exactSide($0, position: keep, point: point) } ?? 0
                    if side != 0 { up = side > 0 } else { up = rounding == .HALF_UP || (rounding == .HALF_EVEN && lastKept % 2 == 1) }
                }
            }
            if keep <= 0 {
                if up { digits = [1]; point = 1 - maxFrac } else { digits = []; point = 0 }
            } else {
                digits = Array(digits[0..<keep])
                if up {
                    var i = keep - 1
                    while i >= 0 { if digits[i] == 9 { digits[i] = 0; i -= 1 } else { digits[i] += 1; break } }
                    if i < 0 { digits.insert(1, at: 0); point += 1 }
                }
            }
            while digits.last == 0 { digits.removeLast() }
        }
        // Integer part: the last maxInt digits, padded to minInt.
        var intDigits: [UInt8] = point > 0 ? (0..<point).map { $0 < digits.count ? digits[$0] : 0 } : []
        while intDigits.first == 0 { intDigits.removeFirst() }
        if intDigits.count > maxInt { intDigits = Array(intDigits.suffix(maxInt)) }
        if intDigits.count < minInt { intDigits = Array(repeating: 0, count: minInt - intDigits.count) + intDigits }
        var fracDigits: [UInt8] = (0..<maxFrac).map { let i = point + $0; return i >= 0 && i < digits.count ? digits[i] : 0 }
        while fracDigits.count > minFrac && fracDigits.last == 0 { fracDigits.removeLast() }
        if intDigits.isEmpty && fracDigits.isEmpty { intDigits = [0] }
        var out = negative ? negativePrefix : positivePrefix
        for (i, d) in intDigits.enumerated() {
            if grouping && groupSize > 0 && i > 0 && (intDigits.count - i) % groupSize == 0 { out.append(",") }
            out.unicodeScalars.append(UnicodeScalar(48 + d))
        }
        if !fracDigits.isEmpty || alwaysShowPoint { out.append(".") }
        for d in fracDigits { out.unicodeScalars.append(UnicodeScalar(48 + d)) }
        return out + (negative ? negativeSuffix : positiveSuffix)
    }

    /// The shortest decimal digits of a finite, non-negative double and where its point sits.
    static func shortestDigits(_ d: Double) -> ([UInt8], Int) {
        let text = d.description
        let parts = text.split(separator: "e")
        var exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let whole = Array(mantissa[0].utf8).map { $0 - 48 }
        let frac = mantissa.count == 2 ? Array(mantissa[1].utf8).map { $0 - 48 } : []
        exponent += whole.count
        var digits = whole + frac
        while digits.first == 0 { digits.removeFirst(); exponent -= 1 }
        return (digits, digits.isEmpty ? 0 : exponent)
    }

    /// The double's exact decimal expansion (C's `%.1100f`: every binary fraction ends within
    /// 1,074 places). Not `String(format:)`, which FoundationEssentials lacks on Linux.
    static func exactDecimal(_ d: Double) -> String {
        let capacity = 1_500
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> String in
            guard let base = buffer.baseAddress else { return "0" }
            let n = withVaList([d]) { vsnprintf(base, capacity, "%.1100f", $0) }
            guard n > 0 else { return "0" }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: min(Int(n), capacity - 1)), as: UTF8.self)
        }
    }

    /// Whether the exact binary value lies above (1), on (0) or below (-1) the tie at `position`.
    static func exactSide(_ d: Double, position: Int, point: Int) -> Int {
        let text = StubNumberFormat.exactDecimal(d)
        let halves = text.split(separator: ".")
        var digits = Array(halves[0].utf8).map { $0 - 48 }
        var exactPoint = digits.count
        if halves.count == 2 { digits += Array(halves[1].utf8).map { $0 - 48 } }
        while digits.first == 0 { digits.removeFirst(); exactPoint -= 1 }
        // The tie digit's place (10^-k after the point) is the same in both forms.
        let index = exactPoint + (position - point)
        guard index >= 0, index < digits.count else { return 0 }
        if digits[index] != 5 { return digits[index] > 5 ? 1 : -1 }
        return digits[(index + 1)...].contains { $0 != 0 } ? 1 : 0
    }
}

struct StubNumberFormatError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
