/// WireMock's `RenderableDate`: an instant with the format and zone it is written in.
struct TemplateDate {
    /// Milliseconds since 1970 (UTC).
    var millis: Int64
    var format: String?
    var zone: StubTimeZone?

    /// As `RenderableDate.toString`: epoch, unix, a SimpleDateFormat pattern, else ISO 8601.
    var text: String {
        let zone = self.zone ?? .utc
        if let format {
            if format == "epoch" { return String(millis) }
            if format == "unix" { return String(millis.floorDiv(1000)) }
            return StubDateFormat.format(millis: millis, zone: zone, format) ?? ""
        }
        let offset = zone.at(millis.floorDiv(1000)).offset
        let base = StubDateFormat.format(millis: millis, zone: zone, "yyyy-MM-dd'T'HH:mm:ss") ?? ""
        return base + (offset == 0 ? "Z" : StubDateFormat.offsetText(offset, colon: true))
    }
}

extension Int64 {
    func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}

/// `now`, `date`, `parseDate` and `truncateDate` (WireMock's HandlebarsCurrentDateHelper,
/// ParseDateHelper, TruncateDateTimeHelper).
extension StubTemplateRenderer {
    mutating func dateHelper(_ name: String, context: TemplateValue, hasContext: Bool, params: [TemplateValue],
                             hash: [String: TemplateValue]) -> TemplateValue {
        switch name {
        case "now", "date":
            let format = hash["format"].map(\.javaText)
            var date: TemplateDate
            if name == "date", case .date(let given) = context {
                date = TemplateDate(millis: given.millis, format: format, zone: given.zone)
            } else {
                var zone: StubTimeZone?
                if let zoneName = hash["timezone"]?.javaText {
                    guard let found = StubTimeZone.named(zoneName) else {
                        fail(.invalid("the time zone \(zoneName) is not installed (no \(StubTimeZone.root)/\(zoneName)) and is no fixed offset"))
                        return .null
                    }
                    zone = found
                }
                let now = Int64((scope.now.timeIntervalSince1970 * 1000).rounded(.down))
                date = TemplateDate(millis: now, format: format, zone: zone)
            }
            if let offset = hash["offset"]?.javaText {
                guard let moved = StubDateFormat.shift(date.millis, by: offset) else {
                    fail(.invalid("the date offset \"\(offset)\" is not an amount and a unit (seconds, minutes, hours, days, months, years), as \"3 days\" or \"now +1 months\""))
                    return .null
                }
                date.millis = moved
            }
            if let format, let bad = StubDateFormat.unsupported(format), format != "epoch", format != "unix" {
                fail(.invalid("the date format \"\(format)\" has the letter \(bad), which is not supported"))
                return .null
            }
            return .date(date)
        case "parseDate":
            let text = context.javaText
            if let format = hash["format"]?.javaText {
                if format.lowercased() == "epoch" || format.lowercased() == "unix" {
                    guard let n = Int64(text) else { fail(.invalid("parseDate: \(text) is not a number")); return .null }
                    return .date(TemplateDate(millis: format.lowercased() == "unix" ? n * 1000 : n, format: nil, zone: nil))
                }
                guard let parsed = StubDateParse.parse(text, pattern: format) else { return .null }
                return .date(parsed)
            }
            return StubDateParse.parseDefault(text).map { .date($0) } ?? .null
        case "truncateDate":
            guard let first = params.first else { return StubTemplateRenderer.error("Truncation type must be specified as the first parameter to truncateDate") }
            guard case .date(let date) = context else { return StubTemplateRenderer.error("A date object must be passed to the truncateDate helper") }
            guard let truncated = StubDateFormat.truncate(date.millis, zone: date.zone ?? .utc, first.javaText) else {
                fail(.invalid("truncateDate: \"\(first.javaText)\" is not a truncation (first hour of day, first day of month, last day of year…)"))
                return .null
            }
            return .date(TemplateDate(millis: truncated, format: nil, zone: date.zone ?? .utc))
        default:
            fail(.invalid("no helper \(name)"))
            return .null
        }
    }
}
