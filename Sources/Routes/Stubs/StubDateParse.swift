/// `parseDate`: Java's `DateTimeFormatter.ofPattern` for the common letters (y u M d H h m s S
/// n E a X x Z z and quoted text), and WireMock's default parsers (ISO 8601 with a zone,
/// RFC 1123, RFC 1036, asctime). Text that does not fit gives nil, as WireMock's null.
enum StubDateParse {
    private struct Fields {
        var year: Int?, month: Int?, day: Int?, hour: Int?, minute: Int?, second: Int?, nanos = 0
        var pm: Bool?
        var offset: Int?
        var zone: StubTimeZone?
    }

    static func parse(_ text: String, pattern: String) -> TemplateDate? {
        let t = Array(text), p = Array(pattern)
        var f = Fields()
        var i = 0, j = 0, quoted = false
        func digits(_ min: Int, _ max: Int) -> Int? {
            var n = 0, count = 0
            var sign = 1
            if j < t.count, t[j] == "-" || t[j] == "+", max > 4 { sign = t[j] == "-" ? -1 : 1; j += 1 }
            while j < t.count, count < max, let v = t[j].wholeNumberValue, t[j].isASCII { n = n * 10 + v; j += 1; count += 1 }
            return count >= min ? sign * n : nil
        }
        while i < p.count {
            let c = p[i]
            if c == "'" {
                if i + 1 < p.count && p[i + 1] == "'" { guard j < t.count, t[j] == "'" else { return nil }; j += 1; i += 2; continue }
                quoted.toggle(); i += 1; continue
            }
            if quoted || !(c.isASCII && c.isLetter) {
                guard j < t.count, t[j] == c else { return nil }
                i += 1; j += 1; continue
            }
            var run = 1
            while i + run < p.count && p[i + run] == c { run += 1 }
            i += run
            // Adjacent numeric fields ("yyyyMMdd") take exactly their width.
            let nextIsDigitField = i < p.count && "yuMdHhmsSn".contains(p[i])
            let width = run
            switch c {
            case "y", "u":
                if run == 2 { guard let v = digits(2, 2) else { return nil }; f.year = 2000 + v } else { guard let v = digits(max(run, 1), nextIsDigitField ? max(run, 4) : 10) else { return nil }; f.year = v }
            case "M":
                if run >= 3 {
                    guard let m = name(t, &j, StubDateFormat.monthNames, full: run >= 4) else { return nil }
                    f.month = m + 1
                } else { guard let v = digits(width, width == 1 && !nextIsDigitField ? 2 : width) else { return nil }; f.month = v }
            case "d": guard let v = digits(width, width == 1 && !nextIsDigitField ? 2 : width) else { return nil }; f.day = v
            case "H", "h", "k", "K": guard let v = digits(width, width == 1 && !nextIsDigitField ? 2 : width) else { return nil }; f.hour = c == "k" && v == 24 ? 0 : v
                if c == "h" || c == "K" { f.pm = f.pm ?? false }
            case "m": guard let v = digits(width, width == 1 && !nextIsDigitField ? 2 : width) else { return nil }; f.minute = v
            case "s": guard let v = digits(width, width == 1 && !nextIsDigitField ? 2 : width) else { return nil }; f.second = v
            case "S":
                let start = j
                guard let v = digits(width, width) else { return nil }
                var nanos = v
                for _ in (j - start)..<9 { nanos *= 10 }
                f.nanos = nanos
            case "E": guard name(t, &j, StubDateFormat.dayNames, full: run >= 4) != nil else { return nil }
            case "a":
                guard j + 1 < t.count else { return nil }
                let ap = String(t[j...(j + 1)]).uppercased()
                guard ap == "AM" || ap == "PM" else { return nil }
                f.pm = ap == "PM"; j += 2
            case "X", "x", "Z":
                if c == "X", j < t.count, t[j] == "Z" { f.offset = 0; j += 1; continue }
                guard let o = offset(t, &j) else { return nil }
                f.offset = o
            case "z", "V":
                var k = j
                while k < t.count, !t[k].isWhitespace { k += 1 }
                let name = String(t[j..<k])
                guard let zone = StubTimeZone.named(name) else { return nil }
                f.zone = zone; j = k
            default: return nil
            }
        }
        guard j == t.count else { return nil }
        return resolve(f)
    }

    private static func name(_ t: [Character], _ j: inout Int, _ names: [String], full: Bool) -> Int? {
        for (k, n) in names.enumerated() {
            let candidate = full ? n : String(n.prefix(3))
            let c = Array(candidate)
            if j + c.count <= t.count, String(t[j..<(j + c.count)]).lowercased() == candidate.lowercased() { j += c.count; return k }
        }
        return nil
    }

    /// `+01:00`, `+0100`, `+01`: seconds east of UTC.
    private static func offset(_ t: [Character], _ j: inout Int) -> Int? {
        guard j < t.count, t[j] == "+" || t[j] == "-" else { return nil }
        var k = j + 1
        while k < t.count, t[k].isASCII, t[k].isNumber || t[k] == ":" { k += 1 }
        guard let o = StubTimeZone.fixedOffset(String(t[j..<k])) else { return nil }
        j = k
        return o
    }

    private static func resolve(_ f: Fields) -> TemplateDate? {
        guard let year = f.year else { return nil }
        let month = f.month ?? 1, day = f.day ?? 1
        guard (1...12).contains(month), day >= 1, day <= StubDateFormat.daysIn(year, month) else { return nil }
        var hour = f.hour ?? 0
        if let pm = f.pm { hour = hour % 12 + (pm ? 12 : 0) }
        let minute = f.minute ?? 0, second = f.second ?? 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        let local = StubDateFormat.daysFrom(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
        var zone: StubTimeZone?
        let utc: Int
        if let z = f.zone { zone = z; utc = StubDateFormat.utc(fromLocal: local, zone: z) } else if let o = f.offset {
            zone = o == 0 ? .utc : StubTimeZone.named(StubDateFormat.offsetText(o, colon: true))
            utc = local - o
        } else { utc = local }
        return TemplateDate(millis: Int64(utc) * 1000 + Int64(f.nanos / 1_000_000), format: nil, zone: zone)
    }

    /// WireMock's ZONED_PARSERS in order: ISO zoned date-time, RFC 1123, RFC 1036, asctime.
    static func parseDefault(_ text: String) -> TemplateDate? {
        if let iso = isoZoned(text) { return iso }
        for pattern in ["EEE, d MMM yyyy HH:mm:ss z", "d MMM yyyy HH:mm:ss z", "EEE, d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss Z",
                        "EEEE, dd-MMM-yy HH:mm:ss z", "EEE MMM dd HH:mm:ss yyyy", "EEE MMM  d HH:mm:ss yyyy"] {
            if let d = parse(text, pattern: pattern) {
                // The asctime forms have no zone in the text: WireMock's parsers give them GMT.
                return d.zone == nil ? TemplateDate(millis: d.millis, format: nil, zone: StubTimeZone.named("GMT")) : d
            }
        }
        return nil
    }

    /// `2021-06-29T11:22:33Z`, `…33.123+01:00`, `…+01:00[Europe/London]`, seconds optional.
    private static func isoZoned(_ text: String) -> TemplateDate? {
        var body = Substring(text)
        var region: String?
        if body.hasSuffix("]"), let open = body.lastIndex(of: "[") {
            region = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
            body = body[..<open]
        }
        for pattern in ["yyyy-MM-dd'T'HH:mm:ssX", "yyyy-MM-dd'T'HH:mmX"] {
            var fraction = 0
            var core = String(body)
            // A fraction of 1 to 9 digits after the seconds.
            if let dot = core.firstIndex(of: "."), pattern.contains("ss") {
                var end = core.index(after: dot)
                while end < core.endIndex, core[end].isASCII, core[end].isNumber { end = core.index(after: end) }
                let digits = core[core.index(after: dot)..<end]
                guard (1...9).contains(digits.count) else { return nil }
                fraction = Int(String(digits.prefix(3)).padding(3)) ?? 0
                core = String(core[..<dot] + core[end...])
            }
            guard var d = parse(core, pattern: pattern) else { continue }
            d.millis += Int64(fraction)
            if let region {
                guard let z = StubTimeZone.named(region) else { return nil }
                d.zone = z
            }
            return d
        }
        return nil
    }
}

private extension String {
    func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: "0", count: n - count) }
}
