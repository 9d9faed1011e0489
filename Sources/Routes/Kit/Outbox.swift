#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// One message the outbox sent, as its observers see it.
package enum OutboxMessage: Sendable {
    case sms(SentSMS)
    case email(SentEmail)
}

/// Every simulated SMS and e-mail, oldest first; each is also one log line.
package final class Outbox: Sendable {
    package struct Messages {
        package var sms: [SentSMS] = []
        package var emails: [SentEmail] = []
        /// One past the number of each list's newest message: every message ever put in counts,
        /// so a list holds numbers `end - count ..< end`. The change log finds what was dropped
        /// and added by these numbers, never by equality (identical SMS are common).
        var smsEnd: UInt64 = 0
        var emailsEnd: UInt64 = 0

        /// These lists in place of the current ones, numbered after them.
        package func replacing(sms: [SentSMS], emails: [SentEmail]) -> Messages {
            Messages(sms: sms, emails: emails, smsEnd: smsEnd &+ UInt64(sms.count), emailsEnd: emailsEnd &+ UInt64(emails.count))
        }
    }

    package let messages = StateCell(Messages())
    let snapshotCache = OutboxSnapshotCache()
    private let observers = Locked<[@Sendable (OutboxMessage) -> Void]>([])
    /// How the systems write phone numbers (`EmulatedSystem.phoneNumber`), set by the app.
    private let phoneForms = Locked<[@Sendable (String) -> String?]>([])
    private let clock: any Clock
    private let logger: Logger
    /// Messages kept per kind; past it the oldest are dropped, so a load test of `/api/users/sms`
    /// cannot grow memory without end. Every message is still logged.
    package let capacity: Int

    package init(clock: any Clock, logger: Logger, capacity: Int = 10_000) {
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
    package func sendSMS(to phone: String, text: String, code: String? = nil) {
        let sms = SentSMS(phone: written(phone), text: text, code: code, sentAt: Outbox.wholeSecond(clock.now()))
        messages.withLock { m in
            Outbox.append(sms, to: &m.sms, capacity: capacity)
            m.smsEnd &+= 1
        }
        logger.outbox(.sms, "SMS to \(sms.phone): \(text)",
                      fields: [("phone", .text(sms.phone)), ("code", .text(code)), ("text", .text(text)), ("sentAt", .text(ISO8601.string(sms.sentAt)))])
        notify(.sms(sms))
    }

    /// Records an e-mail; `link` is the confirmation link it carries, if any.
    package func sendEmail(to address: String, subject: String, body: String, link: String? = nil) {
        let mail = SentEmail(to: address, subject: subject, body: body, link: link, sentAt: Outbox.wholeSecond(clock.now()))
        messages.withLock { m in
            Outbox.append(mail, to: &m.emails, capacity: capacity)
            m.emailsEnd &+= 1
        }
        logger.outbox(.email, "E-mail to \(address): \(subject)\(link.map { " — \($0)" } ?? "")",
                      fields: [("to", .text(address)), ("subject", .text(subject)), ("link", .text(link)), ("sentAt", .text(ISO8601.string(mail.sentAt)))])
        notify(.email(mail))
    }

    /// A message's time as the API writes it, to the second: one read back from the state file
    /// equals the one sent.
    private static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Calls `observer` after every message sent (the control plane's events stream).
    package func observe(_ observer: @escaping @Sendable (OutboxMessage) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    private func notify(_ message: OutboxMessage) {
        for observer in observers.withLock({ $0 }) { observer(message) }
    }

    /// SMS oldest first; with a phone, only those to that number written in any form.
    package func sms(phone: String? = nil) -> [SentSMS] {
        let all = messages.read { Array($0.sms.suffix(capacity)) }
        guard let phone, !phone.isEmpty else { return all }
        let wanted = written(phone)
        return all.filter { $0.phone == wanted }
    }

    /// E-mails oldest first; with an address, only those to it (any case).
    package func emails(to address: String? = nil) -> [SentEmail] {
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
    package func reset() { messages.withLock { $0 = $0.replacing(sms: [], emails: []) } }

    /// Forgets every SMS; the e-mails stay.
    package func clearSMS() { messages.withLock { $0.sms = [] } }

    /// Forgets every e-mail; the SMS stay.
    package func clearEmails() { messages.withLock { $0.emails = [] } }
}
