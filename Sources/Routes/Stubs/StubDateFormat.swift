/// Java's `SimpleDateFormat` letters for template dates (y M d H h k K m s S E a D u z Z X and
/// quoted text), civil-calendar arithmetic, WireMock's offsets ("3 days", "now -1 hours") and
/// truncations ("first day of month"). Zones come from `StubTimeZone`.
enum StubDateFormat {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The first letter of `pattern` outside quotes that is not supported, or nil.
    static func unsupported(_ pattern: String) -> Character? {
        var quoted = false
        for c in pattern {
            if c == "'" { quoted.toggle(); continue }
            if !quoted && c.isASCII && c.isLetter && !"yMdHhkKmsSEaDuzZX".contains(c) { return c }
        }
        return nil
    }

    static func offsetText(_ seconds: Int, colon: Bool) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        return sign + two(a / 3600) + (colon ? ":" : "") + two(a / 60 % 60)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `millis` written with `pattern` in `zone`; nil when the pattern has a letter not supported.
    static func format(millis: Int64, zone: StubTimeZone, _ pattern: String) -> String? {
        let seconds = millis.floorDiv(1000)
        let (offset, abbreviation) = zone.at(seconds)
        let local = Int(seconds) + offset
        let ms = Int(millis - seconds * 1000)
        let days = floorDiv(local, 86400), s = local - days * 86400
        let (y, m, d) = civil(days)
        let weekday = ((days + 3) % 7 + 7) % 7  // 0 = Monday (1970-01-01 was a Thursday)
        let hour = s / 3600
        var out = "", quoted = false
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                if i + 1 < chars.count && chars[i + 1] == "'" { out.append("'"); i += 2; continue }
                quoted.toggle(); i += 1; continue
            }
            guard !quoted, c.isASCII, c.isLetter else { out.append(c); i += 1; continue }
            var run = 1
            while i + run < chars.count && chars[i + run] == c { run += 1 }
            i += run
            func num(_ v: Int) -> String { var t = String(v); while t.count < run { t = "0" + t }; return t }
            switch c {
            case "y": out += run == 2 ? num(y % 100) : num(y)
            case "M": out += run >= 4 ? monthNames[m - 1] : run == 3 ? String(monthNames[m - 1].prefix(3)) : num(m)
            case "d": out += num(d)
            case "D": out += num(days - daysFrom(y, 1, 1) + 1)
            case "H": out += num(hour)
            case "k": out += num(hour == 0 ? 24 : hour)
            case "K": out += num(hour % 12)
            case "h": out += num(hour % 12 == 0 ? 12 : hour % 12)
            case "m": out += num(s / 60 % 60)
            case "s": out += num(s % 60)
            case "S": out += num(ms)
            case "E": out += run >= 4 ? dayNames[weekday] : String(dayNames[weekday].prefix(3))
            case "u": out += num(weekday + 1)
            case "a": out += hour < 12 ? "AM" : "PM"
            case "z": out += abbreviation
            case "Z": out += offsetText(offset, colon: false)
            case "X":
                if offset == 0 { out += "Z" } else {
                    let full = offsetText(offset, colon: run >= 3)
                    out += run == 1 ? String(full.prefix(3)) : full
                }
            default: return nil
            }
        }
        return out
    }

    /// WireMock's DateTimeOffset: "<amount> <UNITS>" or "now ±<amount> <UNITS>" (units plural,
    /// any case), applied in UTC. Nil when it is not one.
    static func shift(_ millis: Int64, by offset: String) -> Int64? {
        if offset.lowercased() == "now" { return millis }
        let parts = offset.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let amountText = parts[parts.count - 2], unit = parts[parts.count - 1].uppercased()
        guard let amount = Int(amountText.hasPrefix("+") ? amountText.dropFirst() : amountText), abs(amount) < 1_000_000_000 else { return nil }
        let second: Int64
        switch unit {
        case "SECONDS": second = 1
        case "MINUTES": second = 60
        case "HOURS": second = 3600
        case "DAYS": second = 86400
        case "MONTHS", "YEARS": return addMonths(millis, unit == "YEARS" ? amount * 12 : amount)
        default: return nil
        }
        return millis + Int64(amount) * second * 1000
    }

    private static func addMonths(_ millis: Int64, _ months: Int) -> Int64 {
        let seconds = millis.floorDiv(1000)
        let rest = millis - seconds * 1000
        let days = floorDiv(Int(seconds), 86400), secondOfDay = Int(seconds) - days * 86400
        var (y, m, d) = civil(days)
        let total = y * 12 + (m - 1) + months
        y = floorDiv(total, 12)
        m = total - y * 12 + 1
        d = min(d, daysIn(y, m))
        return Int64(daysFrom(y, m, d) * 86400 + secondOfDay) * 1000 + rest
    }

    /// WireMock's DateTimeTruncation, in `zone`; nil for a name it does not have.
    static func truncate(_ millis: Int64, zone: StubTimeZone, _ name: String) -> Int64? {
        let seconds = Int(millis.floorDiv(1000))
        let offset = zone.at(Int64(seconds)).offset
        let local = seconds + offset
        let days = floorDiv(local, 86400), s = local - days * 86400
        let (y, m, _) = civil(days)
        let resultLocal: Int
        switch name.uppercased().split(separator: " ").joined(separator: "_") {
        case "FIRST_SECOND_OF_MINUTE": resultLocal = local - s % 60
        case "FIRST_MINUTE_OF_HOUR": resultLocal = local - s % 3600
        case "FIRST_HOUR_OF_DAY": resultLocal = days * 86400
        case "FIRST_DAY_OF_MONTH": resultLocal = daysFrom(y, m, 1) * 86400
        case "FIRST_DAY_OF_NEXT_MONTH": resultLocal = daysFrom(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) * 86400
        case "LAST_DAY_OF_MONTH": resultLocal = daysFrom(y, m, daysIn(y, m)) * 86400
        case "FIRST_DAY_OF_YEAR": resultLocal = daysFrom(y, 1, 1) * 86400
        case "FIRST_DAY_OF_NEXT_YEAR": resultLocal = daysFrom(y + 1, 1, 1) * 86400
        case "LAST_DAY_OF_YEAR": resultLocal = daysFrom(y, 12, 31) * 86400
        default: return nil
        }
        return Int64(utc(fromLocal: resultLocal, zone: zone)) * 1000
    }

    /// The instant whose local time in `zone` is `local` (the earlier offset in a gap or overlap).
    static func utc(fromLocal local: Int, zone: StubTimeZone) -> Int {
        let guess = local - zone.at(Int64(local)).offset
        return local - zone.at(Int64(guess)).offset
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func daysIn(_ y: Int, _ m: Int) -> Int {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's civil_from_days).
    static func civil(_ z0: Int) -> (Int, Int, Int) {
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

    static func daysFrom(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
