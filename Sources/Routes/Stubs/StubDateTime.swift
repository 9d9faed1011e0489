/// A date-time as WireMock's date matchers see one: a wall-clock time (seconds counted as if it
/// were UTC, plus nanoseconds) and, for a zoned one, its UTC offset. Java's `LocalDateTime` when
/// `offset` is nil, a `ZonedDateTime` with a fixed offset otherwise.
struct StubDateTime: Sendable, Equatable {
    /// Wall-clock seconds since 1970-01-01T00:00 (as if the wall clock were UTC).
    var wall: Int
    var nanos: Int
    /// Seconds east of UTC; nil for a local date-time.
    var offset: Int?

    /// Seconds since the epoch, for comparing zoned values (a local one reads as UTC, the zone
    /// WireMock's JVM runs in for these tests; see docs/stubs.md).
    var instant: (Int, Int) { (wall - (offset ?? 0), nanos) }
    /// The wall clock alone (`toLocalDateTime()`).
    var local: StubDateTime { StubDateTime(wall: wall, nanos: nanos, offset: nil) }

    static func less(_ a: (Int, Int), _ b: (Int, Int)) -> Bool { a.0 != b.0 ? a.0 < b.0 : a.1 < b.1 }

    init(wall: Int, nanos: Int, offset: Int?) {
        self.wall = wall
        self.nanos = nanos
        self.offset = offset
    }

    /// From calendar fields; nil when a field is out of range (`2021-02-30`, `24:00`).
    init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanos: Int = 0, offset: Int?) {
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(year, month), (0...23).contains(hour),
              (0...59).contains(minute), (0...59).contains(second), (0..<1_000_000_000).contains(nanos),
              abs(year) <= 999_999_999 else { return nil }
        self.init(wall: CivilCalendar.days(year, month, day) * 86400 + hour * 3600 + minute * 60 + second, nanos: nanos, offset: offset)
    }

    /// (year, month, day, second of day) of the wall clock.
    var fields: (year: Int, month: Int, day: Int, secondOfDay: Int) {
        let days = CivilCalendar.floorDiv(wall, 86400)
        let (y, m, d) = CivilCalendar.civil(days)
        return (y, m, d, wall - days * 86400)
    }

    /// `plus(amount, unit)` as `ZonedDateTime` does it: months and years keep the day, clamped
    /// to the month's last; the others move the clock.
    func adding(_ amount: Int, _ unit: StubDateUnit) -> StubDateTime {
        var moved = self
        switch unit {
        case .seconds: moved.wall += amount
        case .minutes: moved.wall += amount * 60
        case .hours: moved.wall += amount * 3600
        case .days: moved.wall += amount * 86400
        case .months, .years:
            let f = fields
            let total = f.year * 12 + (f.month - 1) + (unit == .years ? amount * 12 : amount)
            let y = CivilCalendar.floorDiv(total, 12), m = total - y * 12 + 1
            let d = min(f.day, CivilCalendar.daysIn(y, m))
            moved.wall = CivilCalendar.days(y, m, d) * 86400 + f.secondOfDay
        }
        return moved
    }
}

/// `expectedOffsetUnit` and the unit of `now +3 days` (WireMock's `DateTimeUnit`).
enum StubDateUnit: String, Sendable, CaseIterable {
    case seconds, minutes, hours, days, months, years
}

/// `truncateExpected` / `truncateActual` (WireMock's `DateTimeTruncation`), on the wall clock.
enum StubDateTruncation: String, Sendable, CaseIterable {
    case firstSecondOfMinute = "first second of minute", firstMinuteOfHour = "first minute of hour"
    case firstHourOfDay = "first hour of day", firstDayOfMonth = "first day of month"
    case firstDayOfNextMonth = "first day of next month", lastDayOfMonth = "last day of month"
    case firstDayOfYear = "first day of year", firstDayOfNextYear = "first day of next year", lastDayOfYear = "last day of year"

    /// As WireMock reads it: any case, `_` or space between the words.
    init?(name: String) {
        self.init(rawValue: String(name.lowercased().map { $0 == "_" ? " " : $0 }))
    }

    func truncate(_ t: StubDateTime) -> StubDateTime {
        let f = t.fields
        let day: (Int, Int, Int)
        switch self {
        case .firstSecondOfMinute: return StubDateTime(wall: t.wall - f.secondOfDay % 60, nanos: 0, offset: t.offset)
        case .firstMinuteOfHour: return StubDateTime(wall: t.wall - f.secondOfDay % 3600, nanos: 0, offset: t.offset)
        case .firstHourOfDay: day = (f.year, f.month, f.day)
        case .firstDayOfMonth: day = (f.year, f.month, 1)
        case .firstDayOfNextMonth: day = f.month == 12 ? (f.year + 1, 1, 1) : (f.year, f.month + 1, 1)
        case .lastDayOfMonth: day = (f.year, f.month, CivilCalendar.daysIn(f.year, f.month))
        case .firstDayOfYear: day = (f.year, 1, 1)
        case .firstDayOfNextYear: day = (f.year + 1, 1, 1)
        case .lastDayOfYear: day = (f.year, 12, 31)
        }
        return StubDateTime(wall: CivilCalendar.days(day.0, day.1, day.2) * 86400, nanos: 0, offset: t.offset)
    }
}

/// The proleptic Gregorian calendar in whole days since 1970-01-01 (Howard Hinnant's algorithms).
enum CivilCalendar {
    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(_ y: Int, _ m: Int) -> Int {
        [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days since 1970-01-01 → (year, month, day).
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

    /// (year, month, day) → days since 1970-01-01.
    static func days(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]
    static let dayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}
