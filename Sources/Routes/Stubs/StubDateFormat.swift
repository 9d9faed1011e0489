#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `{{now}}`'s dates, in UTC: ISO 8601 by default, `epoch` (milliseconds), `unix` (seconds),
/// or a Java `SimpleDateFormat` pattern made of y, M, d, H, m, s, S and quoted text.
enum StubDateFormat {
    /// The first letter of `pattern` outside quotes that is not supported, or nil.
    static func unsupported(_ pattern: String) -> Character? {
        var quoted = false
        for c in pattern {
            if c == "'" { quoted.toggle(); continue }
            if !quoted && c.isLetter && !"yMdHmsS".contains(c) { return c }
        }
        return nil
    }

    static func offset(_ date: Date, seconds: Double, months: Int) -> Date {
        var moved = date.addingTimeInterval(seconds)
        guard months != 0 else { return moved }
        let t = Int(moved.timeIntervalSince1970.rounded(.down))
        let fraction = moved.timeIntervalSince1970 - Double(t)
        let days = floorDiv(t, 86400), secondOfDay = t - days * 86400
        var (y, m, d) = civil(days)
        let total = y * 12 + (m - 1) + months
        y = floorDiv(total, 12)
        m = total - y * 12 + 1
        d = min(d, daysIn(y, m))
        moved = Date(timeIntervalSince1970: Double(daysFrom(y, m, d) * 86400 + secondOfDay) + fraction)
        return moved
    }

    static func format(_ date: Date, _ pattern: String?) -> String {
        let epoch = date.timeIntervalSince1970
        if pattern == "epoch" { return String(Int((epoch * 1000).rounded(.down))) }
        if pattern == "unix" { return String(Int(epoch.rounded(.down))) }
        let t = Int(epoch.rounded(.down))
        let millis = Int(((epoch - Double(t)) * 1000).rounded(.down))
        let days = floorDiv(t, 86400), s = t - days * 86400
        let (y, m, d) = civil(days)
        let fields: [Character: Int] = ["y": y, "M": m, "d": d, "H": s / 3600, "m": s / 60 % 60, "s": s % 60, "S": millis]
        guard let pattern else { return format(date, "yyyy-MM-dd'T'HH:mm:ss'Z'") }
        var out = "", quoted = false
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                if i + 1 < chars.count && chars[i + 1] == "'" { out.append("'"); i += 2; continue }
                quoted.toggle(); i += 1; continue
            }
            guard !quoted, let value = fields[c] else { out.append(c); i += 1; continue }
            var run = 1
            while i + run < chars.count && chars[i + run] == c { run += 1 }
            var text = String(value)
            if c == "y" && run == 2 { text = String(value % 100) }
            while text.count < run { text = "0" + text }
            out += text
            i += run
        }
        return out
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func daysIn(_ y: Int, _ m: Int) -> Int {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's civil_from_days).
    private static func civil(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = floorDiv(z, 146097)
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func daysFrom(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
