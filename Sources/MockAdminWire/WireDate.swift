#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one date form under `/__mock/`: ISO 8601 in UTC to the second (`2026-11-22T11:14:30Z`),
/// which clients parse strictly (`JSONDecoder`'s `.iso8601`, swift-openapi-generator's default
/// transcoder). The wire types write their dates through it whatever the encoder's date strategy,
/// so the bytes are the server's; the server's hot paths append it to a reply without a String.
package enum WireDate {
    /// The date's text, its fraction of a second dropped.
    package static func string(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: 20) { write(date, to: $0) }
    }

    /// The same text appended to bytes (a reply being built), without a String in between.
    package static func append(_ date: Date, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buf in
            let n = write(date, to: buf)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<n]))
        }
    }

    /// Reads the form `string(_:)` writes; any other ISO 8601 date-time with a zone (an offset, a
    /// fraction) through Foundation's parser; nil for anything else.
    package static func date(_ text: String) -> Date? {
        if let seconds = seconds(Array(text.utf8)) { return Date(timeIntervalSince1970: Double(seconds)) }
        return try? Date(text, strategy: .iso8601)
    }

    /// Writes the 20 bytes of the text into `buf` (20 bytes at least); their number.
    private static func write(_ date: Date, to buf: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let parts = civil(Int(date.timeIntervalSince1970.rounded(.down)))
        // Digits by hand: String(format:) goes through CFString and showed up in the gateway's profile.
        var i = 0
        func put(_ value: Int32, _ width: Int) {
            var v = Int(value), k = i + width
            while k > i {
                k -= 1
                buf[k] = UInt8(48 + v % 10)
                v /= 10
            }
            i += width
        }
        func sep(_ c: UInt8) { buf[i] = c; i += 1 }
        put(parts.tm_year + 1900, 4); sep(45); put(parts.tm_mon + 1, 2); sep(45); put(parts.tm_mday, 2)
        sep(84); put(parts.tm_hour, 2); sep(58); put(parts.tm_min, 2); sep(58); put(parts.tm_sec, 2); sep(90)
        return i
    }

    /// The Unix time of `YYYY-MM-DDTHH:MM:SSZ`, or nil when the bytes are not exactly that form.
    private static func seconds(_ b: [UInt8]) -> Int? {
        guard b.count == 20, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 90 else { return nil }
        func number(_ from: Int, _ width: Int) -> Int? {
            var value = 0
            for byte in b[from..<from + width] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        // A day past its month's end (February 30) is not a date.
        guard civil(days * 86_400).tm_mday == Int32(day) else { return nil }
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// UTC calendar fields of a Unix time, in `tm`'s conventions (years since 1900, months from 0).
    /// Integer arithmetic (H. Hinnant's days-to-civil, proleptic Gregorian) instead of gmtime_r,
    /// which takes glibc's time-zone lock on every gateway login.
    package static func civil(_ t: Int) -> (tm_year: Int32, tm_mon: Int32, tm_mday: Int32, tm_hour: Int32, tm_min: Int32, tm_sec: Int32) {
        let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
        let secs = t - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int32(truncatingIfNeeded: year - 1900), Int32(month - 1), Int32(day),
                Int32(secs / 3_600), Int32(secs % 3_600 / 60), Int32(secs % 60))
    }
}

extension WireDate {
    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's civil-to-days).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension KeyedEncodingContainer {
    /// Writes a date in the one form of `/__mock/`, whatever the encoder's date strategy.
    mutating func encodeWireDate(_ date: Date, forKey key: Key) throws {
        try encode(WireDate.string(date), forKey: key)
    }

    /// Writes a date in the one form of `/__mock/`, nothing for nil.
    mutating func encodeWireDateIfPresent(_ date: Date?, forKey key: Key) throws {
        if let date { try encodeWireDate(date, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Reads a date written in the one form of `/__mock/` (or another ISO 8601 date-time).
    func decodeWireDate(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = WireDate.date(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not an ISO 8601 date-time: \(text)")
        }
        return date
    }

    /// Reads an optional date; absent or null is nil.
    func decodeWireDateIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWireDate(forKey: key)
    }
}
