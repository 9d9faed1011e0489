/// Reads date-times as WireMock's date matchers do: ISO 8601 zoned, RFC 1123, RFC 1036 and
/// asctime for a zoned value, ISO local date-time or date for a local one, or an `actualFormat`
/// (a Java `DateTimeFormatter` pattern, `unix` or `epoch`). Texts longer than `maxLength`
/// parse as nothing, so a value costs a bounded pass.
struct StubDateParser: Sendable {
    static let maxLength = 256

    private enum Kind: Sendable {
        case unix, epoch
        case pattern([StubDateFormatElement])
    }

    private let kind: Kind

    /// An `actualFormat`; throws the reason when the pattern uses what is not supported.
    init(format: String) throws(StubDateFormatError) {
        switch format.lowercased() {
        case "unix": kind = .unix
        case "epoch": kind = .epoch
        default: kind = .pattern(try StubDateFormatElement.compile(format))
        }
    }

    private init(elements: [StubDateFormatElement]) { kind = .pattern(elements) }

    // The zoned forms WireMock tries after ISO 8601 (its RFC 1123 reads a numeric offset too).
    private static let fallbacks: [StubDateParser] = [
        "EEE, d MMM yyyy HH:mm:ss z", "d MMM yyyy HH:mm:ss z", "EEE, d MMM yyyy HH:mm z", "d MMM yyyy HH:mm z",
        "EEEE, dd-MMM-yy HH:mm:ss z", "EEE MMM dd HH:mm:ss yyyy", "EEE MMM  d HH:mm:ss yyyy",
    ].compactMap { try? StubDateParser(elements: StubDateFormatElement.compile($0, gmtDefault: !$0.hasSuffix("z"))) }

    /// The zoned reading of `text` with this parser (`parseZonedDateTime`), nil when it has none.
    func zoned(_ text: String) -> StubDateTime? {
        guard text.utf8.count <= StubDateParser.maxLength else { return nil }
        switch kind {
        case .unix: return Int(text).flatMap { $0.multipliedReportingOverflow(by: 1000).overflow ? nil : StubDateTime(millis: $0 * 1000) }
        case .epoch: return Int(text).map { StubDateTime(millis: $0) }
        case .pattern(let elements):
            guard let parsed = StubDateFormatElement.parse(Array(text.utf8), elements), let offset = parsed.offset else { return nil }
            return parsed.dateTime(offset: offset)
        }
    }

    /// The local reading (`parseLocalDateTime`, then `parseLocalDate` at the start of the day).
    func local(_ text: String) -> StubDateTime? {
        guard text.utf8.count <= StubDateParser.maxLength else { return nil }
        switch kind {
        case .unix, .epoch: return zoned(text)?.local
        case .pattern(let elements):
            guard let parsed = StubDateFormatElement.parse(Array(text.utf8), elements) else { return nil }
            return parsed.dateTime(offset: nil) ?? parsed.date
        }
    }

    /// With no `actualFormat`: ISO 8601 zoned (`2021-06-14T12:13:14Z`, `…+01:00`), then the
    /// HTTP date forms.
    static func zoned(_ text: String) -> StubDateTime? {
        guard text.utf8.count <= maxLength else { return nil }
        var c = DateCursor(Array(text.utf8))
        if let t = c.isoDateTime(), let offset = c.isoOffset() {
            if c.peek == UInt8(ascii: "[") { c.skipRegion() }
            if c.atEnd { return StubDateTime(wall: t.wall, nanos: t.nanos, offset: offset) }
        }
        for parser in fallbacks { if let t = parser.zoned(text) { return t } }
        return nil
    }

    /// With no `actualFormat`: ISO 8601 local date-time (`2021-06-14T12:13:14`), or a date.
    static func local(_ text: String) -> StubDateTime? {
        guard text.utf8.count <= maxLength else { return nil }
        var c = DateCursor(Array(text.utf8))
        if let t = c.isoDateTime(), c.atEnd { return t }
        var d = DateCursor(Array(text.utf8))
        if let date = d.isoDate(), d.atEnd { return date }
        return nil
    }
}

extension StubDateTime {
    init(millis: Int) {
        let seconds = CivilCalendar.floorDiv(millis, 1000)
        self.init(wall: seconds, nanos: (millis - seconds * 1000) * 1_000_000, offset: 0)
    }
}

/// A pass over ASCII bytes for the ISO 8601 forms.
struct DateCursor {
    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i == bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func take(_ c: Character) -> Bool {
        guard let b = peek, let a = c.asciiValue, a == b else { return false }
        i += 1
        return true
    }

    /// Exactly `count` digits.
    mutating func digits(_ count: Int) -> Int? {
        guard i + count <= bytes.count else { return nil }
        var v = 0
        for k in i..<(i + count) {
            guard (48...57).contains(bytes[k]) else { return nil }
            v = v * 10 + Int(bytes[k] - 48)
        }
        i += count
        return v
    }

    /// `uuuu-MM-dd` (a year past 9999 has a sign).
    mutating func isoDate() -> StubDateTime? {
        var sign = 1
        var width = 4
        if take("+") { width = 5 } else if take("-") { sign = -1; width = 5 }
        guard var year = digits(width) else { return nil }
        while width < 9, let b = peek, (48...57).contains(b) { year = year * 10 + Int(b - 48); i += 1; width += 1 }
        guard take("-"), let month = digits(2), take("-"), let day = digits(2) else { return nil }
        return StubDateTime(year: sign * year, month: month, day: day, offset: nil)
    }

    /// `date'T'HH:mm[:ss[.fraction]]`.
    mutating func isoDateTime() -> StubDateTime? {
        guard let date = isoDate(), take("T"), let hour = digits(2), take(":"), let minute = digits(2) else { return nil }
        var second = 0, nanos = 0
        if take(":") {
            guard let s = digits(2) else { return nil }
            second = s
            if take(".") {
                var n = 0, scale = 100_000_000
                while let b = peek, (48...57).contains(b), scale > 0 { n += Int(b - 48) * scale; scale /= 10; i += 1 }
                if scale == 100_000_000 { return nil }
                nanos = n
            }
        }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return StubDateTime(wall: date.wall + hour * 3600 + minute * 60 + second, nanos: nanos, offset: nil)
    }

    /// `Z` or `±HH:MM[:SS]`, in seconds.
    mutating func isoOffset() -> Int? {
        if take("Z") { return 0 }
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let h = digits(2), take(":"), let m = digits(2), h <= 18, m <= 59 else { return nil }
        var s = 0
        if take(":") { guard let v = digits(2), v <= 59 else { return nil }; s = v }
        return sign * (h * 3600 + m * 60 + s)
    }

    /// `[Europe/London]`: the offset before it is the one read (no zone rules here).
    mutating func skipRegion() {
        while let b = peek { i += 1; if b == UInt8(ascii: "]") { return } }
    }
}
