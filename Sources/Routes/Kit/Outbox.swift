#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// An SMS the mock "sent": what a real backend would have delivered to a phone.
public struct SentSMS: Codable, Sendable, Equatable {
    public var phone: String
    public var text: String
    public var code: String?
    public var sentAt: String

    /// Every documented key is always written (`"code": null` when none), so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(phone, forKey: .phone)
        try c.encode(text, forKey: .text)
        try c.encode(code, forKey: .code)
        try c.encode(sentAt, forKey: .sentAt)
    }
}

/// An e-mail the mock "sent": what a real backend would have delivered to a mailbox.
public struct SentEmail: Codable, Sendable, Equatable {
    public var to: String
    public var subject: String
    public var body: String
    public var link: String?
    public var sentAt: String

    /// Every documented key is always written (`"link": null` when none), so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(to, forKey: .to)
        try c.encode(subject, forKey: .subject)
        try c.encode(body, forKey: .body)
        try c.encode(link, forKey: .link)
        try c.encode(sentAt, forKey: .sentAt)
    }
}

/// One message the outbox sent, as its observers see it.
public enum OutboxMessage: Sendable {
    case sms(SentSMS)
    case email(SentEmail)
}

/// Every simulated SMS and e-mail, oldest first; each is also one log line.
public final class Outbox: Sendable {
    package struct Messages {
        package var sms: [SentSMS] = []
        package var emails: [SentEmail] = []
        /// One past the number of each list's newest message: every message ever put in counts,
        /// so a list holds numbers `end - count ..< end`. The change log finds what was dropped
        /// and added by these numbers, never by equality (identical SMS are common).
        package var smsEnd: UInt64 = 0
        package var emailsEnd: UInt64 = 0

        /// These lists in place of the current ones, numbered after them.
        package func replacing(sms: [SentSMS], emails: [SentEmail]) -> Messages {
            Messages(sms: sms, emails: emails, smsEnd: smsEnd &+ UInt64(sms.count), emailsEnd: emailsEnd &+ UInt64(emails.count))
        }
    }

    package let messages = StateCell(Messages())
    package let snapshotCache = OutboxSnapshotCache()
    private let observers = Locked<[@Sendable (OutboxMessage) -> Void]>([])
    /// How the systems write phone numbers (`EmulatedSystem.phoneNumber`), set by the app.
    private let phoneForms = Locked<[@Sendable (String) -> String?]>([])
    private let clock: any Clock
    private let logger: Logger
    /// Messages kept per kind; past it the oldest are dropped, so a load test of `/api/users/sms`
    /// cannot grow memory without end. Every message is still logged.
    public let capacity: Int

    public init(clock: any Clock, logger: Logger, capacity: Int = 10_000) {
        self.clock = clock
        self.logger = logger
        self.capacity = max(1, capacity)
    }

    /// Phone numbers written as the first of `forms` that takes them (the systems'), else as given.
    package func writesPhones(as forms: [@Sendable (String) -> String?]) {
        phoneForms.withLock { $0 = forms }
    }

    private func written(_ phone: String) -> String {
        for form in phoneForms.withLock({ $0 }) { if let written = form(phone) { return written } }
        return phone
    }

    /// Records an SMS to a phone (as its system writes it); `code` is the code or password it carries.
    public func sendSMS(to phone: String, text: String, code: String? = nil) {
        let sms = SentSMS(phone: written(phone), text: text, code: code, sentAt: ISO8601.string(clock.now()))
        messages.withLock { m in
            Outbox.append(sms, to: &m.sms, capacity: capacity)
            m.smsEnd &+= 1
        }
        logger.outbox(.sms, "SMS to \(sms.phone): \(text)",
                      fields: [("phone", .text(sms.phone)), ("code", .text(code)), ("text", .text(text)), ("sentAt", .text(sms.sentAt))])
        notify(.sms(sms))
    }

    /// Records an e-mail; `link` is the confirmation link it carries, if any.
    public func sendEmail(to address: String, subject: String, body: String, link: String? = nil) {
        let mail = SentEmail(to: address, subject: subject, body: body, link: link, sentAt: ISO8601.string(clock.now()))
        messages.withLock { m in
            Outbox.append(mail, to: &m.emails, capacity: capacity)
            m.emailsEnd &+= 1
        }
        logger.outbox(.email, "E-mail to \(address): \(subject)\(link.map { " — \($0)" } ?? "")",
                      fields: [("to", .text(address)), ("subject", .text(subject)), ("link", .text(link)), ("sentAt", .text(mail.sentAt))])
        notify(.email(mail))
    }

    /// Calls `observer` after every message sent (the control plane's events stream).
    public func observe(_ observer: @escaping @Sendable (OutboxMessage) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    private func notify(_ message: OutboxMessage) {
        for observer in observers.withLock({ $0 }) { observer(message) }
    }

    /// SMS oldest first; with a phone, only those to that number written in any form.
    public func sms(phone: String? = nil) -> [SentSMS] {
        let all = messages.read { Array($0.sms.suffix(capacity)) }
        guard let phone, !phone.isEmpty else { return all }
        let wanted = written(phone)
        return all.filter { $0.phone == wanted }
    }

    /// E-mails oldest first; with an address, only those to it (any case).
    public func emails(to address: String? = nil) -> [SentEmail] {
        let all = messages.read { Array($0.emails.suffix(capacity)) }
        guard let address, !address.isEmpty else { return all }
        return all.filter { $0.to.lowercased() == address.lowercased() }
    }

    /// Appends; past twice the capacity the oldest are dropped in one go, so a send costs O(1)
    /// amortised (dropping one at a time moved the whole array on every SMS of a flood).
    private static func append<T>(_ item: T, to list: inout [T], capacity: Int) {
        if list.count >= 2 * capacity { list.removeFirst(list.count - capacity + 1) }
        list.append(item)
    }

    /// Forgets every message.
    public func reset() { messages.withLock { $0 = $0.replacing(sms: [], emails: []) } }

    /// Forgets every SMS; the e-mails stay.
    public func clearSMS() { messages.withLock { $0.sms = [] } }

    /// Forgets every e-mail; the SMS stay.
    public func clearEmails() { messages.withLock { $0.emails = [] } }
}

/// ISO 8601 UTC timestamps without fraction (`2026-11-22T11:14:30Z`), as clients parse them
/// strictly: every date under `/__mock/` (journal `at`, `sentAt`, the clock's `now`, sessions'
/// `expiresAt`, events) is written this way, so one standard decoder (`JSONDecoder`'s `.iso8601`,
/// swift-openapi-generator's default transcoder) reads them all.
public enum ISO8601 {
    public static func string(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: 20) { write(date, to: $0) }
    }

    /// The same text appended to bytes (a reply being built), without a String in between.
    package static func append(_ date: Date, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buf in
            let n = write(date, to: buf)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<n]))
        }
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
