/// A birthday as the client wrote it (wall-clock fields, no time zone), output as `dd.MM.yyyy HH:mm:ss`.
///
/// Parsed by fixed templates instead of a shared `DateFormatter`: no locale or time zone can
/// change the result, and nothing mutable is shared between request threads.
struct MusbookingDate: Sendable, Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    /// The formats clients send, as ASP.NET with the ru-RU culture reads them: the original's
    /// own, a date alone (`d.M.yyyy` too), and ISO 8601 (as in the document's sample
    /// `2014-05-17T12:03:42`) with an optional fraction and offset (`Z`, `+03:00`, `+0300`).
    /// The offset is dropped: a birthday keeps the wall-clock fields the client wrote.
    private static let templates = [
        "dd.MM.yyyy HH:mm:ss", "dd.MM.yyyy HH:mm", "dd.MM.yyyy",
        "d.M.yyyy HH:mm:ss", "d.M.yyyy H:mm:ss", "dd.MM.yyyy H:mm:ss", "d.M.yyyy", "dd.M.yyyy", "d.MM.yyyy",
        "yyyy-MM-ddTHH:mm:ss", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-ddTHH:mm", "yyyy-MM-dd",
    ]

    /// The text without an ISO offset after a time (`Z`, `±HH:mm`, `±HHmm`); nil when the offset is malformed.
    private static func droppingOffset(_ text: [UInt8]) -> [UInt8]? {
        guard text.count > 16, text[10] == UInt8(ascii: "T") || text[10] == UInt8(ascii: " ") else { return text }
        if text.last == UInt8(ascii: "Z") { return Array(text.dropLast()) }
        let digits: (ArraySlice<UInt8>) -> Bool = { $0.allSatisfy { (48...57).contains($0) } }
        for length in [6, 5] where text.count > 19 + length - 1 {
            let start = text.count - length
            guard text[start] == UInt8(ascii: "+") || text[start] == UInt8(ascii: "-") else { continue }
            let offset = text[(start + 1)...]
            if length == 6 {
                guard offset[start + 3] == UInt8(ascii: ":"), digits(offset[(start + 1)...(start + 2)]),
                      digits(offset[(start + 4)...]) else { return nil }
            } else {
                guard digits(offset) else { return nil }
            }
            return Array(text[..<start])
        }
        return text
    }

    /// Parses one of the accepted formats; nil for anything else or an impossible date (31.02).
    init?(parsing raw: String) {
        guard var text = MusbookingDate.droppingOffset(Array(raw.trimmingWhitespace(newlines: false).utf8)) else { return nil }
        // An ISO fraction (`12:03:42.123Z`) carries nothing a birthday needs: drop it.
        if text.count > 20, text[19] == UInt8(ascii: "."), text[10] == UInt8(ascii: "T") {
            var end = 20
            while end < text.count, (48...57).contains(text[end]) { end += 1 }
            guard end > 20 else { return nil }
            text.removeSubrange(19..<end)
        }
        for template in MusbookingDate.templates {
            if let date = MusbookingDate(text, template: Array(template.utf8)) {
                self = date
                return
            }
        }
        return nil
    }

    private init?(_ text: [UInt8], template: [UInt8]) {
        guard text.count == template.count else { return nil }
        var fields: [UInt8: Int] = [:]
        for (c, t) in zip(text, template) {
            if "dMyHms".utf8.contains(t) {
                guard (48...57).contains(c) else { return nil }
                fields[t, default: 0] = fields[t, default: 0] * 10 + Int(c - 48)
            } else if c != t {
                return nil
            }
        }
        year = fields[UInt8(ascii: "y")] ?? 0
        month = fields[UInt8(ascii: "M")] ?? 0
        day = fields[UInt8(ascii: "d")] ?? 0
        hour = fields[UInt8(ascii: "H")] ?? 0
        minute = fields[UInt8(ascii: "m")] ?? 0
        second = fields[UInt8(ascii: "s")] ?? 0
        guard (1...9999).contains(year), (1...12).contains(month), (1...MusbookingDate.days(in: month, of: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
    }

    private static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `22.01.2015 15:23:56`, the original's output format.
    var formatted: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = String(year)
        return "\(two(day)).\(two(month)).\(String(repeating: "0", count: max(0, 4 - y.count)))\(y) \(two(hour)):\(two(minute)):\(two(second))"
    }
}
