/// Why an `actualFormat` was refused.
struct StubDateFormatError: Error, Sendable {
    let reason: String
}

/// One piece of a Java `DateTimeFormatter` pattern, for parsing: the letters y/u, M/L, d, H, h, a,
/// m, s, S, E, z, Z, X, x, quoted text and any other character as itself. Other letters
/// (week fields, zone ids, eras) are refused when the mapping is read.
enum StubDateFormatElement: Sendable, Equatable {
    case literal([UInt8])
    /// A number of `min`…`max` digits for a field; `twoDigitYear`: `yy`, 2000–2099.
    case number(Field, min: Int, max: Int)
    case monthText(full: Bool)
    case dayName(full: Bool)
    case amPm
    /// `SSS`: that many digits of the second's fraction.
    case fraction(Int)
    /// `Z` (+HHMM), `ZZZZZ`/`XXX` (+HH:MM or Z), `X` (+HH[MM] or Z), `XX` (+HHMM or Z); `x…` no Z.
    case offset(colon: Bool, minutesOptional: Bool, z: Bool)
    /// `z`: GMT, UTC, UT or Z.
    case zoneName
    /// Not written: the zone a format without one gives (asctime's GMT).
    case impliedGMT

    enum Field: Sendable, Equatable { case year, twoDigitYear, month, day, hour, clockHour, minute, second }

    static func compile(_ pattern: String, gmtDefault: Bool = false) throws(StubDateFormatError) -> [StubDateFormatElement] {
        let chars = Array(pattern.unicodeScalars)
        var out: [StubDateFormatElement] = []
        var i = 0
        func literal(_ s: String) {
            if case .literal(let prev)? = out.last { out[out.count - 1] = .literal(prev + Array(s.utf8)) } else { out.append(.literal(Array(s.utf8))) }
        }
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                if i + 1 < chars.count && chars[i + 1] == "'" { literal("'"); i += 2; continue }
                var j = i + 1, text = ""
                while j < chars.count {
                    if chars[j] == "'" {
                        if j + 1 < chars.count && chars[j + 1] == "'" { text += "'"; j += 2; continue }
                        break
                    }
                    text.unicodeScalars.append(chars[j]); j += 1
                }
                guard j < chars.count else { throw StubDateFormatError(reason: "an unclosed quote in the date format \"\(pattern)\"") }
                literal(text)
                i = j + 1
                continue
            }
            guard c.properties.isAlphabetic, c.isASCII else { literal(String(c)); i += 1; continue }
            var n = 1
            while i + n < chars.count && chars[i + n] == c { n += 1 }
            i += n
            switch c {
            case "y", "u": out.append(n == 2 ? .number(.twoDigitYear, min: 2, max: 2) : .number(.year, min: n, max: 10))
            case "M", "L":
                if n >= 3 { out.append(.monthText(full: n >= 4)) } else { out.append(.number(.month, min: n, max: 2)) }
            case "d": out.append(.number(.day, min: n, max: 2))
            case "H": out.append(.number(.hour, min: n, max: 2))
            case "h": out.append(.number(.clockHour, min: n, max: 2))
            case "m": out.append(.number(.minute, min: n, max: 2))
            case "s": out.append(.number(.second, min: n, max: 2))
            case "S" where n <= 9: out.append(.fraction(n))
            case "E": out.append(.dayName(full: n >= 4))
            case "a" where n == 1: out.append(.amPm)
            case "z" where n <= 3: out.append(.zoneName)
            case "Z" where n <= 3: out.append(.offset(colon: false, minutesOptional: false, z: false))
            case "Z" where n == 5: out.append(.offset(colon: true, minutesOptional: false, z: true))
            case "X", "x":
                guard n <= 3 else { fallthrough }
                out.append(.offset(colon: n == 3, minutesOptional: n == 1, z: c == "X"))
            default:
                throw StubDateFormatError(reason: "the date format letter \"\(String(repeating: String(c), count: n))\" in \"\(pattern)\" is not supported "
                                          + "(supported: y u M L d H h a m s S E z Z X x, unix, epoch)")
            }
        }
        if gmtDefault { out.append(.impliedGMT) }
        return out
    }

    /// The fields one parse found.
    struct Parsed {
        var year: Int?, month: Int?, day: Int?, hour: Int?, clockHour: Int?, pm: Bool?, minute = 0, second = 0, nanos = 0
        var dayOfWeek: Int?
        var offset: Int?

        /// The date at midnight (`LocalDate…atStartOfDay()`).
        var date: StubDateTime? {
            guard let year, let month, let day, let d = StubDateTime(year: year, month: month, day: day, offset: nil) else { return nil }
            // 1970-01-01 was a Thursday (3, counting from Monday); Java refuses a day name that disagrees.
            let days = CivilCalendar.floorDiv(d.wall, 86400) + 3
            if let dayOfWeek, days - 7 * CivilCalendar.floorDiv(days, 7) != dayOfWeek { return nil }
            return d
        }

        /// Date and time (an hour is needed; minutes and seconds default to 0).
        func dateTime(offset: Int?) -> StubDateTime? {
            var h = hour
            if h == nil, let clockHour, let pm, (1...12).contains(clockHour) { h = clockHour % 12 + (pm ? 12 : 0) }
            guard let h, let d = date, (0...23).contains(h), (0...59).contains(minute), (0...59).contains(second) else { return nil }
            return StubDateTime(wall: d.wall + h * 3600 + minute * 60 + second, nanos: nanos, offset: offset)
        }
    }

    /// Reads all of `bytes` with `elements`; nil when they do not fit (a bounded pass: no backtracking).
    static func parse(_ bytes: [UInt8], _ elements: [StubDateFormatElement]) -> Parsed? {
        var p = Parsed()
        var i = 0
        func digitRun(_ min: Int, _ max: Int) -> Int? {
            var v = 0, n = 0
            while n < max, i < bytes.count, (48...57).contains(bytes[i]) { v = v * 10 + Int(bytes[i] - 48); i += 1; n += 1 }
            return n >= min ? v : nil
        }
        func word(_ names: [String], full: Bool) -> Int? {
            for (k, name) in names.enumerated() {
                let text = Array((full ? name : String(name.prefix(3))).utf8)
                guard i + text.count <= bytes.count else { continue }
                // Java reads the English names as it prints them: capitalised.
                let candidate = bytes[i..<(i + text.count)]
                if zip(candidate, text).enumerated().allSatisfy({ $0.offset == 0 ? $0.element.0 == $0.element.1 - 32 : $0.element.0 == $0.element.1 }) {
                    i += text.count
                    return k
                }
            }
            return nil
        }
        for (k, element) in elements.enumerated() {
            switch element {
            case .literal(let text):
                guard i + text.count <= bytes.count, Array(bytes[i..<(i + text.count)]) == text else { return nil }
                i += text.count
            case .number(let field, let min, var max):
                // Adjacent numbers (`yyyyMMdd`): a variable-width field takes only its minimum.
                if k + 1 < elements.count, case .number = elements[k + 1] { max = min }
                guard let v = digitRun(min, max) else { return nil }
                switch field {
                case .year: p.year = v
                case .twoDigitYear: p.year = 2000 + v
                case .month: p.month = v
                case .day: p.day = v
                case .hour: p.hour = v
                case .clockHour: p.clockHour = v
                case .minute: p.minute = v
                case .second: p.second = v
                }
            case .monthText(let full):
                guard let m = word(CivilCalendar.monthNames, full: full) else { return nil }
                p.month = m + 1
            case .dayName(let full):
                guard let d = word(CivilCalendar.dayNames, full: full) else { return nil }
                p.dayOfWeek = d
            case .amPm:
                guard i + 2 <= bytes.count else { return nil }
                let two = String(decoding: bytes[i..<(i + 2)], as: UTF8.self)
                guard two == "AM" || two == "PM" else { return nil }
                p.pm = two == "PM"
                i += 2
            case .fraction(let n):
                guard let v = digitRun(n, n) else { return nil }
                var scale = 1
                for _ in n..<9 { scale *= 10 }
                p.nanos = v * scale
            case .offset(let colon, let minutesOptional, let z):
                if z, i < bytes.count, bytes[i] == UInt8(ascii: "Z") { i += 1; p.offset = 0; continue }
                guard i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") else { return nil }
                let sign = bytes[i] == UInt8(ascii: "+") ? 1 : -1
                i += 1
                guard let h = digitRun(2, 2), h <= 18 else { return nil }
                var m = 0
                if !(minutesOptional && (i >= bytes.count || !(48...57).contains(bytes[i]))) {
                    if colon { guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }; i += 1 }
                    guard let v = digitRun(2, 2), v <= 59 else { return nil }
                    m = v
                }
                p.offset = sign * (h * 3600 + m * 60)
            case .zoneName:
                var matched = false
                for name in ["GMT", "UTC", "UT", "Z"] {
                    let text = Array(name.utf8)
                    if i + text.count <= bytes.count, Array(bytes[i..<(i + text.count)]) == text { i += text.count; matched = true; break }
                }
                guard matched else { return nil }
                p.offset = 0
            case .impliedGMT:
                p.offset = 0
            }
        }
        return i == bytes.count ? p : nil
    }
}
