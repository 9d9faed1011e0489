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

    /// The formats clients send: the original's own, a date alone, and ISO 8601 (as in the
    /// document's sample `2014-05-17T12:03:42`) with an optional `Z` and fraction.
    private static let templates = [
        "dd.MM.yyyy HH:mm:ss", "dd.MM.yyyy HH:mm", "dd.MM.yyyy",
        "yyyy-MM-ddTHH:mm:ss", "yyyy-MM-ddTHH:mm:ssZ", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-ddTHH:mm", "yyyy-MM-dd",
    ]

    /// Parses one of the accepted formats; nil for anything else or an impossible date (31.02).
    init?(parsing raw: String) {
        var text = Array(raw.trimmingCharacters(in: .whitespaces).utf8)
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
