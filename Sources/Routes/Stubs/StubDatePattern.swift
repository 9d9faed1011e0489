#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// `before`, `after` and `equalToDateTime` (WireMock's `AbstractDateTimePattern`): the expected
/// date-time is a literal (zoned or local) or `now` with an offset (`now +3 days`, or
/// `expectedOffset` + `expectedOffsetUnit`), read on the mock's clock at each match.
struct StubDatePattern: Sendable {
    enum Kind: String, Sendable, CaseIterable { case before, after, equalToDateTime }
    enum Expected: Sendable {
        case zoned(StubDateTime)
        case local(StubDateTime)
        /// `now` moved by an amount (0 seconds for plain `now`).
        case now(Int, StubDateUnit)
        /// A literal WireMock reads as no date at all: it never matches there either.
        case unreadable
    }

    let kind: Kind
    let expected: Expected
    let actualFormat: StubDateParser?
    let truncateExpected: StubDateTruncation?
    let truncateActual: StubDateTruncation?

    static let fields = ["actualFormat", "truncateExpected", "truncateActual", "expectedOffset", "expectedOffsetUnit"]

    static func decode(_ object: StrictObject, kind: Kind, at pointer: String) throws(StubProblem) -> StubDatePattern {
        try object.allow([kind.rawValue] + fields)
        let op = kind.rawValue
        guard let spec = try object.string(op) else { throw StubProblem(pointer + "/" + op, "\"\(op)\" must be a date-time string or \"now +3 days\"") }
        var actualFormat: StubDateParser?
        if let format = try object.string("actualFormat") {
            do { actualFormat = try StubDateParser(format: format) } catch { throw StubProblem(pointer + "/actualFormat", error.reason) }
        }
        func truncation(_ key: String) throws(StubProblem) -> StubDateTruncation? {
            guard let name = try object.string(key) else { return nil }
            guard let t = StubDateTruncation(name: name) else {
                throw StubProblem(pointer + "/" + key, "\"\(name)\" is not a truncation (one of: \(StubDateTruncation.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return t
        }
        let expected: Expected
        if let offset = try nowOffset(spec, at: pointer + "/" + op) {
            let amount = try object.int("expectedOffset", in: Int(Int32.min)...Int(Int32.max))
            let unitName = try object.string("expectedOffsetUnit")
            if let amount, let unitName {
                guard let unit = StubDateUnit(rawValue: unitName.lowercased()) else {
                    throw StubProblem(pointer + "/expectedOffsetUnit", "\"\(unitName)\" is not a unit (one of: \(StubDateUnit.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                expected = .now(amount, unit)
            } else {
                expected = .now(offset.0, offset.1)
            }
        } else if let zoned = StubDateParser.zoned(spec) {
            expected = .zoned(zoned)
        } else if let local = StubDateParser.local(spec) {
            expected = .local(local)
        } else {
            expected = .unreadable
        }
        return StubDatePattern(kind: kind, expected: expected, actualFormat: actualFormat,
                               truncateExpected: try truncation("truncateExpected"), truncateActual: try truncation("truncateActual"))
    }

    /// `now`, `now +3 days`, `-2 hours`, as WireMock's `isNowOffsetExpression`; nil for a literal.
    static func nowOffset(_ spec: String, at pointer: String) throws(StubProblem) -> (Int, StubDateUnit)? {
        if spec.lowercased() == "now" { return (0, .seconds) }
        var rest = Substring(spec)
        if rest.lowercased().hasPrefix("now ") { rest = rest.dropFirst(4) }
        let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        var number = parts[0]
        if number.first == "+" || number.first == "-" { number = number.dropFirst() }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let amount = Int32(parts[0].hasPrefix("+") ? String(parts[0].dropFirst()) : String(parts[0])) else {
            throw StubProblem(pointer, "the offset in \"\(spec)\" is out of range")
        }
        guard let unit = StubDateUnit(rawValue: parts[1].lowercased()) else {
            throw StubProblem(pointer, "\"\(parts[1])\" in \"\(spec)\" is not a unit (one of: \(StubDateUnit.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return (Int(amount), unit)
    }

    /// Whether `value` (nil: missing, never a match) compares as the pattern asks; `now` is the mock's clock.
    func matches(_ value: String?, now: Date) -> Bool {
        guard let value else { return false }
        var zonedActual = actualFormat.map { $0.zoned(value) } ?? StubDateParser.zoned(value)
        if let t = zonedActual, let truncateActual { zonedActual = truncateActual.truncate(t) }
        let localActual = actualFormat.map { $0.local(value) } ?? StubDateParser.local(value)
        var zonedExpected: StubDateTime?, localExpected: StubDateTime?
        switch expected {
        case .zoned(let t): zonedExpected = t
        case .local(let t): localExpected = t
        case .unreadable: return false
        case .now(let amount, let unit):
            let seconds = now.timeIntervalSince1970.rounded(.down)
            var t = StubDateTime(wall: Int(seconds), nanos: Int((now.timeIntervalSince1970 - seconds) * 1e9), offset: 0)
            if let truncateExpected { t = truncateExpected.truncate(t) }
            zonedExpected = t.adding(amount, unit)
        }
        // The order WireMock's AbstractDateTimeMatchResult tries the pairs in.
        if let e = zonedExpected, let a = zonedActual { return compare(a.instant, e.instant) }
        if let e = localExpected, let a = localActual { return compare(a.instant, e.instant) }
        if let e = localExpected, let a = zonedActual { return compare(a.local.instant, e.instant) }
        if let e = zonedExpected, let a = localActual { return compare(a.instant, e.instant) }
        return false
    }

    private func compare(_ actual: (Int, Int), _ expected: (Int, Int)) -> Bool {
        switch kind {
        case .before: return StubDateTime.less(actual, expected)
        case .after: return StubDateTime.less(expected, actual)
        case .equalToDateTime: return actual == expected
        }
    }
}
